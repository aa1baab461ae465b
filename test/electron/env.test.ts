/** The shell's environment, checked like any outside input: here the update feed it may be pointed at. */
import { describe, expect, it } from 'vitest';
import { readShellEnv } from '../../electron/env';

describe('INTEL_DESK_UPDATE_URL', () => {
  it('takes an https feed, or http on this computer', () => {
    expect(readShellEnv({ INTEL_DESK_UPDATE_URL: 'https://updates.example/desk/' }).updateUrl).toBe(
      'https://updates.example/desk/',
    );
    expect(readShellEnv({ INTEL_DESK_UPDATE_URL: 'http://127.0.0.1:8080/' }).updateUrl).toBe(
      'http://127.0.0.1:8080/',
    );
    expect(readShellEnv({}).updateUrl).toBeUndefined();
  });

  it('refuses plain http elsewhere and other schemes, naming the variable', () => {
    for (const url of ['http://updates.example/desk/', 'file:///tmp/feed/', 'ftp://updates.example/'])
      expect(() => readShellEnv({ INTEL_DESK_UPDATE_URL: url }), url).toThrow(/INTEL_DESK_UPDATE_URL/);
  });
});

describe('INTEL_DESK_SERVICE_URL and INTEL_DESK_RPC_URL', () => {
  it('take https, or http on this computer, and refuse plain http elsewhere naming the variable', () => {
    for (const name of ['INTEL_DESK_SERVICE_URL', 'INTEL_DESK_RPC_URL']) {
      for (const url of ['https://reports.example.com', 'http://127.0.0.1:8402', 'http://localhost:8545'])
        expect(() => readShellEnv({ [name]: url }), `${name} ${url}`).not.toThrow();
      for (const url of ['http://reports.example.com', 'http://0.0.0.0:8402', 'ftp://reports.example.com'])
        expect(() => readShellEnv({ [name]: url }), `${name} ${url}`).toThrow(
          new RegExp(`${name}: .*(https|Invalid)`),
        );
    }
  });
});
