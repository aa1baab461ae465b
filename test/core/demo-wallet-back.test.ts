/**
 * In the demo, a browser or WalletConnect wallet that goes away leaves the demo's own keystore paying again,
 * unlocked as at start: the demo sealed it with a passphrase nobody was told, so asking for it would strand
 * the person. Outside the demo, or for a keystore under a passphrase of the person's own, it stays locked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/service/stack';
import { DEMO_PASSPHRASE } from '../../src/host/boot';
import { PASSPHRASE, deskFor, tempDir } from './helpers';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 1, minReportsPerHandle: 1, maxReportsPerHandle: 1 },
    buyerCount: 2,
  });
});
afterAll(async () => {
  await stack?.stop();
});

const EXTERNAL = '0x000000000000000000000000000000000000dEaD';

async function afterExternalWallet(options: { demo: boolean; sealedWith: string }) {
  const data = tempDir('demo-wallet-');
  const desk = await deskFor(stack, data.dir, {
    demo: options.demo,
    demoWalletPassphrase: DEMO_PASSPHRASE,
  });
  await desk.handlers['wallet.import']({ privateKey: stack.buyerKeys[0]!, passphrase: options.sealedWith });
  await desk.handlers['wallet.unlock']({ passphrase: options.sealedWith });
  await desk.handlers['wallet.useExternal']({ address: EXTERNAL });
  const view = await desk.handlers['wallet.forgetExternal']({});
  await desk.close();
  data.remove();
  return view;
}

describe('the demo keystore after a connected wallet goes away', () => {
  it('pays again in the demo, unlocked with the passphrase the demo holds', async () => {
    const view = await afterExternalWallet({ demo: true, sealedWith: DEMO_PASSPHRASE });
    expect(view).toMatchObject({ kind: 'keystore', unlocked: true });
  });

  it('stays locked when sealed with a passphrase the person chose', async () => {
    const view = await afterExternalWallet({ demo: true, sealedWith: PASSPHRASE });
    expect(view).toMatchObject({ kind: 'keystore', unlocked: false });
  });

  it('stays locked outside the demo', async () => {
    const view = await afterExternalWallet({ demo: false, sealedWith: DEMO_PASSPHRASE });
    expect(view).toMatchObject({ kind: 'keystore', unlocked: false });
  });
});
