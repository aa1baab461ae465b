/**
 * A second wallet import from the command line: refused without --replace, wallet.json left byte-identical;
 * with --replace the new key is stored and the old keystore is kept, byte for byte, in backups/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { tempDir } from '../core/helpers';
import { closedPortUrl } from '../closed-port';
import { runCli, type Run } from './run-cli';

const PASSPHRASE = 'quartz lantern meadow oxide';
let data: ReturnType<typeof tempDir>;
let service: string;
const first = generatePrivateKey();
const second = generatePrivateKey();

function cli(args: string[]): Promise<Run> {
  return runCli(args, {
    INTEL_DESK_SERVICE_URL: service,
    INTEL_DESK_DATA_DIR: data.dir,
    INTEL_DESK_PASSPHRASE: PASSPHRASE,
    INTEL_DESK_PRIVATE_KEY: undefined,
    INTEL_DESK_RPC_URL: undefined,
  });
}

function keyFile(name: string, key: string): string {
  const file = path.join(data.dir, name);
  writeFileSync(file, key, { mode: 0o600 });
  return file;
}

beforeAll(async () => {
  data = tempDir('desk-cli-replace-');
  service = await closedPortUrl();
});
afterAll(() => data?.remove());

describe('intel-desk wallet import over an existing wallet', () => {
  it('is refused without --replace and leaves wallet.json unchanged; --replace keeps the old one in backups/', async () => {
    const a = privateKeyToAccount(first).address;
    const b = privateKeyToAccount(second).address;
    const firstImport = await cli(['wallet', 'import', '--key-file', keyFile('a.key', first)]);
    expect(firstImport.code, firstImport.stderr).toBe(0);
    const walletFile = path.join(data.dir, 'wallet.json');
    const before = readFileSync(walletFile);

    const refused = await cli(['wallet', 'import', '--key-file', keyFile('b.key', second)]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(a);
    expect(refused.stderr).toContain(b);
    expect(refused.stderr).toMatch(/--replace/);
    expect(refused.stderr).toMatch(/\[wallet_exists\]/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(walletFile).equals(before)).toBe(true);

    const status = await cli(['wallet', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ address: a });

    // The same key again (say, under a new passphrase) replaces nothing and needs no flag.
    const again = await cli(['wallet', 'import', '--key-file', keyFile('a.key', first)]);
    expect(again.code, again.stderr).toBe(0);
    const sameAgain = readFileSync(walletFile);

    const replaced = await cli([
      'wallet',
      'import',
      '--key-file',
      keyFile('b.key', second),
      '--replace',
      '--json',
    ]);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(JSON.parse(replaced.stdout)).toMatchObject({ kind: 'keystore', address: b });
    const backups = path.join(data.dir, 'backups');
    const kept = readdirSync(backups).filter((name) => name.startsWith('wallet-'));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toContain(a);
    expect(readFileSync(path.join(backups, kept[0]!)).equals(sameAgain)).toBe(true);
    expect(statSync(path.join(backups, kept[0]!)).mode & 0o777).toBe(0o600);
    expect(statSync(backups).mode & 0o777).toBe(0o700);
  });
});
