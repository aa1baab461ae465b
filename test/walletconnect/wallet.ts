/**
 * The wallet side of WalletConnect in the test process, with the official sign client: it pairs from a URI,
 * approves the session for the chains and account it is given, and answers eth_signTypedData_v4 and
 * personal_sign as the test decides (sign, reject, or hold the request unanswered). It signs with a viem
 * account, or as a contract wallet whose owner signs (ERC-1271, test/interop/contract-wallet.ts).
 */
import { randomUUID } from 'node:crypto';
import { SignClient } from '@walletconnect/sign-client';
import type { JsonRpcRecord, SessionTypes } from '@walletconnect/types';
import { getAddress, type Address, type Hex, type LocalAccount } from 'viem';
import { z } from 'zod';
import { contractWalletSignature } from '../interop/contract-wallet';

type Client = InstanceType<typeof SignClient>;

/** A well-formed project id: the test relay ignores it, the client only insists on its presence. */
export const TEST_PROJECT_ID = '0123456789abcdef0123456789abcdef';

const typedDataSchema = z.object({
  domain: z.object({
    name: z.string(),
    version: z.string(),
    chainId: z.number(),
    verifyingContract: z.string(),
  }),
  primaryType: z.string(),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  message: z.record(z.string(), z.string()),
});
export type SignedTypedData = z.infer<typeof typedDataSchema>;

export interface WalletRequest {
  id: number;
  topic: string;
  chainId: string;
  method: string;
  params: unknown[];
}

/** What the wallet does with the next signing request: sign it, refuse it (as a person pressing Reject), or hold it. */
export type WalletAnswer = 'sign' | 'reject' | 'hold';

export interface TestWalletOptions {
  relayUrl: string;
  /** The key that signs: the account itself, or the owner of `contract`. */
  signer: LocalAccount;
  /** A contract wallet's address: the session shares it, and signatures are the owner's, wrapped for ERC-1271. */
  contract?: Address;
  /** The CAIP-2 chains the wallet approves, e.g. ['eip155:84532']. */
  chains: string[];
}

export interface TestWallet {
  client: Client;
  address: Address;
  /** Every request the desk sent, in order. */
  requests: WalletRequest[];
  /** The typed data of every eth_signTypedData_v4 request, parsed. */
  typedData: SignedTypedData[];
  /** Requests held unanswered (answer 'hold'), oldest first. */
  held: WalletRequest[];
  answer: WalletAnswer;
  /** Session deletes received from the desk. */
  deletes: string[];
  /** Pairs with the URI the desk shows and approves the proposal; resolves with the settled session. */
  pair(uri: string): Promise<SessionTypes.Struct>;
  /** Resolves once a request with `method` arrived (counting from `after` requests). */
  nextRequest(method: string, after?: number): Promise<WalletRequest>;
  /** Signs a held (or any) request and sends the signature. */
  sign(request: WalletRequest): Promise<Hex>;
  /** The signature this wallet gives typed data. */
  signTypedData(typedData: SignedTypedData): Promise<Hex>;
  /** Ends the session from the wallet's side. */
  disconnect(topic: string): Promise<void>;
  /** Moves to another account (signing with `to` from now on): the session is updated, accountsChanged emitted. */
  changeAccount(topic: string, to: LocalAccount): Promise<void>;
  stop(): Promise<void>;
}

const USER_REJECTED = { code: 5000, message: 'User rejected.' };

export async function startTestWallet(options: TestWalletOptions): Promise<TestWallet> {
  const client = await SignClient.init({
    projectId: TEST_PROJECT_ID,
    relayUrl: options.relayUrl,
    metadata: {
      name: 'Test wallet',
      description: 'A wallet in the test process',
      url: 'https://wallet.invalid',
      icons: [],
    },
    storageOptions: { database: ':memory:' },
    // Its own core: clients in one process otherwise share one, and so one relay identity.
    customStoragePrefix: `test-wallet-${randomUUID()}`,
    telemetryEnabled: false,
  });
  let signer = options.signer;
  let address = getAddress(options.contract ?? signer.address);
  const listeners = new Set<() => void>();
  const wake = () => {
    for (const listener of [...listeners]) listener();
  };
  const until = <T>(found: () => T | undefined, what: string, timeoutMs = 30_000) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = found();
        if (value === undefined) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve(value);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`The test wallet waited ${timeoutMs} ms for ${what}.`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });

  // The desk's answers to this wallet's own requests, as they arrive. sign-client's `acknowledged()` cannot be
  // used: its promise only hears an answer that arrives after it is called, and a desk that answers before the
  // update (or approval) call returns leaves it waiting five minutes.
  const answers: { topic: string; method: string; error: string | null }[] = [];
  client.core.history.on('history_updated', (record: JsonRpcRecord) => {
    if (!record.response) return;
    const error = 'error' in record.response ? record.response.error.message : null;
    answers.push({ topic: record.topic, method: record.request.method, error });
    wake();
  });
  /** The desk's answer to this wallet's `method` request on `topic`, among those after the first `from`. */
  async function answerTo(method: string, topic: string, from: number): Promise<void> {
    const answer = await until(
      () => answers.slice(from).find((a) => a.method === method && a.topic === topic),
      `the desk's answer to ${method}`,
    );
    if (answer.error !== null) throw new Error(`The desk refused ${method}: ${answer.error}`);
  }

  const accounts = (who: Address) => options.chains.map((chain) => `${chain}:${who}`);
  const namespaces = (who: Address): SessionTypes.Namespaces => ({
    eip155: {
      chains: options.chains,
      accounts: accounts(who),
      methods: ['eth_signTypedData_v4', 'personal_sign', 'eth_accounts', 'eth_chainId'],
      events: ['accountsChanged', 'chainChanged'],
    },
  });

  async function signatureFor(request: WalletRequest): Promise<Hex> {
    if (request.method === 'eth_signTypedData_v4') {
      return wallet.signTypedData(typedDataSchema.parse(JSON.parse(String(request.params[1]))));
    }
    if (request.method === 'personal_sign') {
      const raw = z
        .string()
        .regex(/^0x[0-9a-fA-F]*$/)
        .parse(request.params[0]) as Hex;
      if (options.contract) throw new Error('The test contract wallet signs typed data only.');
      return signer.signMessage({ message: { raw } });
    }
    throw new Error(`The test wallet does not sign ${request.method}.`);
  }

  const wallet: TestWallet = {
    client,
    get address() {
      return address;
    },
    requests: [],
    typedData: [],
    held: [],
    answer: 'sign',
    deletes: [],
    async pair(uri) {
      const proposal = new Promise<SessionTypes.Struct>((resolve, reject) => {
        client.once('session_proposal', ({ id }) => {
          const from = answers.length;
          client
            .approve({ id, namespaces: namespaces(address) })
            .then(async ({ topic }) => {
              await answerTo('wc_sessionSettle', topic, from);
              return client.session.get(topic);
            })
            .then(resolve, reject);
        });
      });
      await client.pair({ uri });
      return proposal;
    },
    nextRequest(method, after = 0) {
      return until(
        () => wallet.requests.slice(after).find((r) => r.method === method),
        `a ${method} request`,
      );
    },
    async sign(request) {
      const signature = await signatureFor(request);
      wallet.held = wallet.held.filter((r) => r.id !== request.id);
      await client.respond({
        topic: request.topic,
        response: { id: request.id, jsonrpc: '2.0', result: signature },
      });
      return signature;
    },
    async signTypedData(typedData) {
      const { EIP712Domain: _domain, ...types } = typedData.types;
      const definition = {
        domain: { ...typedData.domain, verifyingContract: getAddress(typedData.domain.verifyingContract) },
        types,
        primaryType: typedData.primaryType,
        message: typedData.message,
      };
      return options.contract
        ? contractWalletSignature(signer, definition)
        : signer.signTypedData(definition);
    },
    disconnect: (topic) =>
      client.disconnect({ topic, reason: { code: 6000, message: 'User disconnected.' } }),
    async changeAccount(topic, to) {
      signer = to;
      address = getAddress(to.address);
      const from = answers.length;
      await client.update({ topic, namespaces: namespaces(address) });
      await answerTo('wc_sessionUpdate', topic, from);
      const chainId = options.chains[0]!;
      await client.emit({ topic, chainId, event: { name: 'accountsChanged', data: [address] } });
    },
    async stop() {
      await client.core.relayer.transportClose();
    },
  };

  client.on('session_request', (event) => {
    const request: WalletRequest = {
      id: event.id,
      topic: event.topic,
      chainId: event.params.chainId,
      method: event.params.request.method,
      params: z.array(z.unknown()).parse(event.params.request.params),
    };
    wallet.requests.push(request);
    if (request.method === 'eth_signTypedData_v4')
      wallet.typedData.push(typedDataSchema.parse(JSON.parse(String(request.params[1]))));
    wake();
    const respond = async () => {
      if (wallet.answer === 'hold') {
        wallet.held.push(request);
        return;
      }
      if (wallet.answer === 'reject') {
        await client.respond({
          topic: request.topic,
          response: { id: request.id, jsonrpc: '2.0', error: USER_REJECTED },
        });
        return;
      }
      await wallet.sign(request);
    };
    void respond().finally(wake);
  });
  client.on('session_delete', ({ topic }) => {
    wallet.deletes.push(topic);
    wake();
  });
  return wallet;
}
