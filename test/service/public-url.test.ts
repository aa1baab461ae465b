/**
 * The service's public URL (issue 40) is checked where it is configured: an origin only, http or https, no
 * credentials, path, query or fragment; a bad one stops the start with a sentence naming the setting.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePublicUrl } from '../../src/service/public-url';
import { startStack } from '../../src/service/stack';

const root = path.resolve(import.meta.dirname, '../..');

describe('the public URL of the reference service', () => {
  it('is an origin, read from its written form', () => {
    expect(parsePublicUrl('https://intel.example.com')).toBe('https://intel.example.com');
    expect(parsePublicUrl(' https://Intel.Example.com:8443/ ')).toBe('https://intel.example.com:8443');
    expect(parsePublicUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
  });

  it.each([
    ['', /it is empty/],
    ['intel.example.com', /it is not a URL/],
    ['ftp://intel.example.com', /its scheme is ftp, not http or https/],
    ['https://user:pw@intel.example.com', /user name or password/],
    ['https://intel.example.com/desk', /it has a path \(\/desk\)/],
    ['https://intel.example.com/?a=1', /query or fragment/],
    ['https://intel.example.com/#top', /query or fragment/],
  ])('refuses %j', (text, reason) => {
    expect(() => parsePublicUrl(text, '--public-url')).toThrow(
      /^--public-url must be the origin the desk reaches the service at, such as https:\/\/intel\.example\.com/,
    );
    expect(() => parsePublicUrl(text)).toThrow(reason);
  });

  it('stops startStack before any chain starts', async () => {
    await expect(startStack({ publicUrl: 'https://intel.example.com/desk' })).rejects.toThrow(
      /the service stack did not start: checking the options failed: publicUrl must be the origin .*\(it has a path/,
    );
  });

  it('stops `npm run service` with the setting named, from the environment or the flag', () => {
    const run = (args: string[], env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/service/main.ts', ...args], {
        cwd: root,
        env: { ...process.env, ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const fromEnv = run([], { INTEL_DESK_SERVICE_PUBLIC_URL: 'intel.example.com' });
    expect(fromEnv.status).toBe(1);
    expect(fromEnv.stderr).toMatch(
      /service failed to start: INTEL_DESK_SERVICE_PUBLIC_URL must be the origin .*"intel\.example\.com" is not \(it is not a URL\)/,
    );
    const fromFlag = run(['--public-url', 'ftp://x.example'], {});
    expect(fromFlag.status).toBe(1);
    expect(fromFlag.stderr).toMatch(
      /service failed to start: --public-url must be the origin .*its scheme is ftp/,
    );
  });
});
