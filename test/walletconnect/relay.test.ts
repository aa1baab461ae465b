/**
 * The test relay carries a whole WalletConnect exchange between two official sign clients (a dApp and the test
 * wallet): pairing from the URI, the session, a signing request and its answer, and a relay that drops and comes
 * back. The e2e (e2e/walletconnect-pairing.test.ts) does the same with the desk in Chromium as the dApp.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignClient } from '@walletconnect/sign-client';
import { privateKeyToAccount } from 'viem/accounts';
import { verifyTypedData, type Hex } from 'viem';
import { anvilDevKey } from '../../src/service/chain/accounts';
import { startTestRelay, type TestRelay } from './relay';
import { startTestWallet, TEST_PROJECT_ID, type TestWallet } from './wallet';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '../../src/core/payments/authorization';

const CHAIN = 'eip155:84532';
const account = privateKeyToAccount(anvilDevKey(2));
const typedData = {
  domain: {
    name: 'USDC',
    version: '2',
    chainId: 84532,
    verifyingContract: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  },
  types: TRANSFER_WITH_AUTHORIZATION_TYPES,
  primaryType: 'TransferWithAuthorization',
  message: {
    from: account.address,
    to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    value: '30000',
    validAfter: '0',
    validBefore: '99999999999',
    nonce: `0x${'11'.repeat(32)}`,
  },
} as const;

let relay: TestRelay;
let wallet: TestWallet;
let dapp: InstanceType<typeof SignClient>;
let topic: string;

beforeAll(async () => {
  relay = await startTestRelay();
  wallet = await startTestWallet({ relayUrl: relay.url, signer: account, chains: [CHAIN] });
  dapp = await SignClient.init({
    projectId: TEST_PROJECT_ID,
    relayUrl: relay.url,
    metadata: {
      name: 'dApp',
      description: 'A dApp in the test process',
      url: 'https://dapp.invalid',
      icons: [],
    },
    storageOptions: { database: ':memory:' },
    customStoragePrefix: 'relay-test-dapp',
    telemetryEnabled: false,
  });
});

afterAll(async () => {
  await wallet?.stop();
  await dapp?.core.relayer.transportClose();
  await relay?.stop();
});

/** Whether `signature` is the account's over the typed data (its numbers as viem wants them). */
const signedByAccount = (signature: Hex) =>
  verifyTypedData({
    ...typedData,
    message: { ...typedData.message, value: 30_000n, validAfter: 0n, validBefore: 99_999_999_999n },
    address: account.address,
    signature,
  });

const signRequest = () =>
  dapp.request<Hex>({
    topic,
    chainId: CHAIN,
    request: { method: 'eth_signTypedData_v4', params: [account.address, JSON.stringify(typedData)] },
  });

describe('the test relay between two official sign clients', () => {
  it('pairs from the URI, settles a session and carries a signing request and its answer', async () => {
    const { uri, approval } = await dapp.connect({
      optionalNamespaces: {
        eip155: { chains: [CHAIN], methods: ['eth_signTypedData_v4'], events: ['accountsChanged'] },
      },
    });
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/);
    const [walletSession, dappSession] = await Promise.all([wallet.pair(uri!), approval()]);
    expect(dappSession.topic).toBe(walletSession.topic);
    expect(dappSession.namespaces['eip155']?.accounts).toEqual([`${CHAIN}:${account.address}`]);
    topic = dappSession.topic;

    const signature = await signRequest();
    expect(wallet.typedData).toEqual([typedData]);
    expect(await signedByAccount(signature)).toBe(true);
    // Both clients are on the relay, each known by its own id.
    expect(new Set(relay.connectedClients()).size).toBe(2);
    for (const method of ['wc_proposeSession', 'wc_approveSession', 'irn_publish', 'irn_subscribe'])
      expect(relay.calls.get(method), method).toBeGreaterThan(0);
  });

  it('carries a request again after the relay dropped every socket and came back on its port', async () => {
    const before = relay.connections();
    await relay.drop();
    await relay.restart();
    const signature = await signRequest();
    expect(await signedByAccount(signature)).toBe(true);
    expect(relay.connections()).toBeGreaterThanOrEqual(before + 2);
  });

  it('tells the dApp when the wallet refuses', async () => {
    wallet.answer = 'reject';
    await expect(signRequest()).rejects.toMatchObject({ message: 'User rejected.' });
    wallet.answer = 'sign';
  });

  it('delivers the wallet’s session delete to the dApp', async () => {
    const deleted = new Promise<string>((resolve) =>
      dapp.once('session_delete', ({ topic: t }) => resolve(t)),
    );
    await wallet.disconnect(topic);
    expect(await deleted).toBe(topic);
  });
});

describe('the test relay as a connection', () => {
  it('pings every socket, as the real relay does (sign-client in Node drops a socket that hears none)', async () => {
    const quick = await startTestRelay({ pingEveryMs: 20 });
    interface PingedSocket {
      once(event: 'open' | 'ping' | 'close', listener: () => void): void;
      close(): void;
    }
    const { WebSocket } = createRequire(import.meta.url)('ws') as {
      WebSocket: new (url: string) => PingedSocket;
    };
    const socket = new WebSocket(quick.url);
    try {
      await new Promise<void>((resolve) => socket.once('open', resolve));
      await new Promise<void>((resolve) => socket.once('ping', resolve));
      await new Promise<void>((resolve) => socket.once('ping', resolve));
    } finally {
      const closed = new Promise<void>((resolve) => socket.once('close', resolve));
      socket.close();
      await closed;
      await quick.stop();
    }
  });
});
