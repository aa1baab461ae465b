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
