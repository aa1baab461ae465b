import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import { DeskError } from '../../src/core/base/errors';
import { keychain } from './test-keychain';
import {
  PASSPHRASE,
  balanceOf,
  deskFor,
  deskWithWallet,
  ledgerRows,
  tempDir,
  v3Keystore,
  firstHandle,
  onPurchaseSteps,
} from './helpers';

let stack: Stack;
let handle: string;
let ids: string[];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 6, maxReportsPerHandle: 6 },
    buyerCount: 2,
  });
  ({ handle, ids } = await firstHandle(stack));
});
afterAll(async () => {
  await stack?.stop();
});

async function code(action: Promise<unknown>): Promise<string> {
  try {
    await action;
  } catch (error) {
    if (error instanceof DeskError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('the desktop keystore', () => {
  it('imports a JSON keystore, keeps the key encrypted at rest, and unlocks only with the passphrase', async () => {
    const data = tempDir('desk-keystore-');
    try {
      const key = stack.buyerKeys[1]!;
      const desk = await deskFor(stack, data.dir);
      expect(
        await code(
          desk.handlers['wallet.import']({
            keystoreJson: v3Keystore(key, 'geth pw'),
            keystorePassword: 'wrong',
            passphrase: PASSPHRASE,
          }),
        ),
      ).toBe('wrong_passphrase');
      const imported = await desk.handlers['wallet.import']({
        keystoreJson: v3Keystore(key, 'geth pw'),
        keystorePassword: 'geth pw',
        passphrase: PASSPHRASE,
      });
      expect(imported).toMatchObject({
        kind: 'keystore',
        address: privateKeyToAccount(key).address,
        unlocked: true,
      });
      for (const file of readdirSync(data.dir)) {
        expect(readFileSync(path.join(data.dir, file)).includes(Buffer.from(key.slice(2), 'hex'))).toBe(
          false,
        );
        expect(readFileSync(path.join(data.dir, file), 'latin1')).not.toContain(key.slice(2));
      }
      await desk.handlers['wallet.lock']({});
      const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'ids', ids: [ids[0]!] } });
      expect(
        await code(
          desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
        ),
      ).toBe('wallet_locked');
      expect(await code(desk.handlers['wallet.unlock']({ passphrase: 'nope' }))).toBe('wrong_passphrase');
      await desk.close();

      const restarted = await deskFor(stack, data.dir);
      expect(await restarted.handlers['wallet.status']({})).toMatchObject({
        kind: 'keystore',
        unlocked: false,
      });
      expect((await restarted.handlers['wallet.unlock']({ passphrase: PASSPHRASE })).unlocked).toBe(true);
      await restarted.close();
    } finally {
      data.remove();
    }
  });
});

describe('an external wallet (the renderer signs)', () => {
  it('hands out typed data, checks the returned signature recovers to the wallet, then pays', async () => {
    const data = tempDir('desk-external-');
    try {
      const account = privateKeyToAccount(stack.buyerKeys[0]!);
      const desk = await deskFor(stack, data.dir);
      await desk.handlers['wallet.useExternal']({ address: account.address });
      const quote = await desk.handlers['quote.get']({
        handle,
        selection: { kind: 'ids', ids: ids.slice(1, 3) },
      });
      const started = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
      expect(started.status).toBe('needs_signature');
      if (started.status !== 'needs_signature') return;
      const { typedData } = started.request;
      expect(typedData.domain).toEqual({
        name: 'USD Coin',
        version: '2',
        chainId: 31337,
        verifyingContract: stack.asset,
      });
      expect(typedData.message).toMatchObject({ from: account.address, to: stack.payTo, value: '20000' });

      const signable = {
        domain: {
          ...typedData.domain,
          verifyingContract: typedData.domain.verifyingContract as `0x${string}`,
        },
        types: typedData.types,
        primaryType: typedData.primaryType,
        message: typedData.message,
      };
      const stranger = privateKeyToAccount(stack.buyerKeys[1]!);
      const wrong = await stranger.signTypedData(signable);
      expect(
        await code(
          desk.handlers['purchase.submitSignature']({
            purchaseId: started.request.purchaseId,
            signature: wrong,
          }),
        ),
      ).toBe('invalid_signature');
      expect((await desk.handlers['purchases.list']({})).purchases).toHaveLength(0);

      const again = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
      if (again.status !== 'needs_signature') throw new Error('expected a signature request');
      const before = await balanceOf(stack, account.address);
      const signature = await account.signTypedData({
        ...signable,
        message: again.request.typedData.message,
      });
      const done = await desk.handlers['purchase.submitSignature']({
        purchaseId: again.request.purchaseId,
        signature,
      });
      expect(done.status).toBe('completed');
      expect(await balanceOf(stack, account.address)).toBe(before - 20_000n);
      await desk.close();
    } finally {
      data.remove();
    }
  });
});

describe('a connected wallet that goes away', () => {
  it('is forgotten: the keystore is the wallet again, locked, and a purchase asks for its passphrase', async () => {
    const data = tempDir('desk-forget-');
    try {
      const desk = await deskFor(stack, data.dir);
      const keystore = privateKeyToAccount(stack.buyerKeys[1]!);
      await desk.handlers['wallet.import']({ privateKey: stack.buyerKeys[1]!, passphrase: PASSPHRASE });
      const phone = privateKeyToAccount(stack.buyerKeys[0]!);
      await desk.handlers['wallet.useExternal']({ address: phone.address });
      expect(await desk.handlers['wallet.status']({})).toMatchObject({
        kind: 'external',
        address: phone.address,
      });

      const after = await desk.handlers['wallet.forgetExternal']({});
      expect(after).toMatchObject({ kind: 'keystore', address: keystore.address, unlocked: false });
      // Forgetting twice changes nothing.
      expect(await desk.handlers['wallet.forgetExternal']({})).toEqual(after);
      const quote = await desk.handlers['quote.get']({
        handle,
        selection: { kind: 'ids', ids: ids.slice(0, 1) },
      });
      expect(
        await code(
          desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
        ),
      ).toBe('wallet_locked');
      await desk.close();
    } finally {
      data.remove();
    }
  });

  it('leaves no wallet at all when there is no keystore', async () => {
    const data = tempDir('desk-forget-none-');
    try {
      const desk = await deskFor(stack, data.dir);
      await desk.handlers['wallet.useExternal']({
        address: privateKeyToAccount(stack.buyerKeys[0]!).address,
      });
      expect(await desk.handlers['wallet.forgetExternal']({})).toMatchObject({ kind: null, address: null });
      await desk.close();
    } finally {
      data.remove();
    }
  });
});

describe('the library secret (spec 5.8)', () => {
  it('is write-only, checked against the service, and reads paid routes without signing', async () => {
    const data = tempDir('desk-secret-');
    try {
      // A wallet that is unlocked and able to pay: the secret still stands in for buying, and nothing is signed.
      let signings = 0;
      const { desk, address } = await deskWithWallet(stack, data.dir, 1, {
        onEvent: onPurchaseSteps((_id, step) => {
          if (step === 'signing') signings++;
        }),
      });
      const before = await balanceOf(stack, address);
      const wrong = await desk.handlers['settings.setLibrarySecret']({ secret: 'not it' });
      expect(wrong).toMatchObject({ librarySecretSet: true, librarySecretAccepted: false });
      const settings = await desk.handlers['settings.setLibrarySecret']({ secret: stack.librarySecret });
      expect(settings).toMatchObject({ librarySecretSet: true, librarySecretAccepted: true });
      expect(JSON.stringify(settings)).not.toContain(stack.librarySecret);
      for (const file of readdirSync(data.dir)) {
        expect(readFileSync(path.join(data.dir, file), 'latin1')).not.toContain(stack.librarySecret);
      }
      const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
      const outcome = await desk.handlers['purchase.start']({
        quoteId: quote.quoteId,
        confirmedAmount: quote.amount,
      });
      expect(outcome.status).toBe('completed');
      if (outcome.status === 'completed')
        expect(outcome.purchase).toMatchObject({
          amount: '0',
          paidWith: 'library_secret',
          network: '',
          payer: '',
        });
      expect((await desk.handlers['library.list']({ handle })).items).toHaveLength(ids.length);
      expect(signings).toBe(0);
      expect(await balanceOf(stack, address)).toBe(before);
      expect(ledgerRows(data.dir)).toMatchObject([
        { paid_with: 'library_secret', network: '', amount: '0', payer: '', nonce: '', state: 'completed' },
      ]);
      expect((await desk.handlers['settings.clearLibrarySecret']({})).librarySecretSet).toBe(false);
      await desk.close();
    } finally {
      data.remove();
    }
  });
});

describe('the OS keychain adapter', () => {
  it('wraps the sealed key and the library secret, and says so when the keychain is missing or foreign', async () => {
    const data = tempDir('desk-keychain-');
    try {
      const key = stack.buyerKeys[1]!;
      const vaultKey = randomBytes(32);
      const desk = await deskFor(stack, data.dir, { vault: keychain(vaultKey) });
      await desk.handlers['wallet.import']({ privateKey: key, passphrase: PASSPHRASE });
      await desk.handlers['settings.setLibrarySecret']({ secret: 'first-party secret' });
      await desk.close();
      const stored = JSON.parse(readFileSync(path.join(data.dir, 'wallet.json'), 'utf8')) as object;
      expect(Object.keys(stored)).toEqual(['vault']);
      for (const file of readdirSync(data.dir)) {
        const text = readFileSync(path.join(data.dir, file), 'latin1');
        expect(text).not.toContain(key.slice(2));
        expect(text).not.toContain('first-party secret');
        expect(text).not.toContain('ciphertext');
      }

      const same = await deskFor(stack, data.dir, { vault: keychain(vaultKey) });
      expect(await same.handlers['wallet.unlock']({ passphrase: PASSPHRASE })).toMatchObject({
        address: privateKeyToAccount(key).address,
        unlocked: true,
      });
      // Unsealed through the keychain; the service refused this secret, so that is kept too.
      expect(await same.handlers['settings.get']({})).toMatchObject({
        librarySecretOrigin: new URL(stack.baseUrl).origin,
        librarySecretSet: true,
        librarySecretAccepted: false,
      });
      await same.close();

      const missing = await deskFor(stack, data.dir, { vault: keychain(vaultKey, false) });
      expect(await code(missing.handlers['wallet.status']({}))).toBe('keychain_unavailable');
      await missing.close();
      const foreign = await deskFor(stack, data.dir, { vault: keychain() });
      expect(await code(foreign.handlers['wallet.unlock']({ passphrase: PASSPHRASE }))).toBe(
        'keychain_refused',
      );
      await foreign.close();
    } finally {
      data.remove();
    }
  });
});
