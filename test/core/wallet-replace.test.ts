/**
 * Importing over a wallet of another address, through dispatch as the window calls it: refused with both
 * addresses in the refusal's details and wallet.json untouched, unless the input says `replace: true`; the
 * replaced keystore is kept in backups/.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createDeskCore } from '../../src/core';
import { dispatch } from '../../src/host/dispatch';
import { rpcErrorDetails } from '../../src/shared/rpc-errors';
import { closedPortUrl } from '../closed-port';
import { PASSPHRASE, tempDir } from './helpers';

describe('wallet.import over an existing wallet', () => {
  it('is refused naming both addresses unless replace is set, and keeps the replaced keystore', async () => {
    const data = tempDir('desk-wallet-replace-');
    const desk = await createDeskCore({
      dataDir: data.dir,
      serviceUrl: await closedPortUrl(),
      walletKdfCost: 'fast-insecure-for-tests',
    });
    try {
      const [first, second] = [generatePrivateKey(), generatePrivateKey()];
      const call = (input: Record<string, unknown>) =>
        dispatch(desk.handlers, 'wallet.import', { passphrase: PASSPHRASE, ...input }, () => undefined);
      expect((await call({ privateKey: first })).ok).toBe(true);
      const walletFile = path.join(data.dir, 'wallet.json');
      const before = readFileSync(walletFile);

      const refused = await call({ privateKey: second });
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      expect(rpcErrorDetails(refused.error, 'wallet_exists')).toEqual({
        current: privateKeyToAccount(first).address,
        incoming: privateKeyToAccount(second).address,
      });
      expect(readFileSync(walletFile).equals(before)).toBe(true);
      expect((await desk.handlers['wallet.status']({})).address).toBe(privateKeyToAccount(first).address);
      expect((await call({ privateKey: second, replace: 'yes' })).ok).toBe(false);

      const replaced = await call({ privateKey: second, replace: true });
      expect(replaced).toMatchObject({ ok: true, value: { address: privateKeyToAccount(second).address } });
      const kept = readdirSync(path.join(data.dir, 'backups'));
      expect(kept).toEqual([expect.stringContaining(privateKeyToAccount(first).address)]);
      expect(readFileSync(path.join(data.dir, 'backups', kept[0]!)).equals(before)).toBe(true);
    } finally {
      await desk.close();
      data.remove();
    }
  });
});
