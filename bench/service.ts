/** The reference service on loopback: throughput of free and paid routes, and signature verification cost. */
import { randomBytes } from 'node:crypto';
import { toHex, verifyTypedData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadFromWorker } from './http-load';
import { startBenchStack, type Stack } from './stack';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '../src/core/payments/authorization';
import { round, throughput, timeMsAsync, type Section } from './measure';

const DURATION_MS = 2_500;
const CONCURRENCY = 8;

async function ok(url: string, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(url, { headers: { Accept: 'application/json', ...headers } });
  if (response.status === 200) await response.arrayBuffer();
  else throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
}

async function signedPayments(stack: Stack, count: number) {
  const account = privateKeyToAccount(stack.buyerKeys[0]!);
  const now = BigInt(Math.floor(Date.now() / 1000));
  const headers: string[] = [];
  for (let i = 0; i < count; i++) {
    const authorization = {
      from: account.address,
      to: stack.payTo,
      value: 10_000n,
      validAfter: now - 60n,
      validBefore: now + 300n,
      nonce: toHex(randomBytes(32)),
    };
    const domain = { name: 'USD Coin', version: '2', chainId: stack.chainId, verifyingContract: stack.asset };
    const signature = await account.signTypedData({
      domain,
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: authorization,
    });
    // Exactly what the service offers (accepts[0] of its challenge): it refuses other terms.
    const accepted = {
      scheme: 'exact',
      protocol: 'x402',
      version: 2,
      network: stack.network,
      asset: stack.asset,
      amount: '10000',
      payTo: stack.payTo,
      maxTimeoutSeconds: 300,
      extra: { name: 'USD Coin', version: '2' },
    };
    const payload = {
      x402Version: 2,
      accepted,
      payload: {
        signature,
        authorization: {
          ...authorization,
          value: '10000',
          validAfter: String(authorization.validAfter),
          validBefore: String(authorization.validBefore),
        },
      },
    };
    headers.push(Buffer.from(JSON.stringify(payload)).toString('base64'));
  }
  return headers;
}

async function verificationsPerSecond(stack: Stack): Promise<number> {
  const account = privateKeyToAccount(stack.buyerKeys[0]!);
  const domain = { name: 'USD Coin', version: '2', chainId: stack.chainId, verifyingContract: stack.asset };
  const message = {
    from: account.address,
    to: stack.payTo,
    value: 1n,
    validAfter: 0n,
    validBefore: 1n,
    nonce: toHex(randomBytes(32)),
  };
  const signature = await account.signTypedData({
    domain,
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message,
  });
  const rounds = 300;
  let valid = 0;
  const ms = await (async () => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) {
      if (
        await verifyTypedData({
          address: account.address,
          domain,
          types: TRANSFER_WITH_AUTHORIZATION_TYPES,
          primaryType: 'TransferWithAuthorization',
          message,
          signature,
        })
      )
        valid++;
    }
    return Number(process.hrtime.bigint() - start) / 1e6;
  })();
  if (valid !== rounds) throw new Error('signature verification failed during the benchmark');
  return rounds / (ms / 1000);
}

/** The bare limit: node:http answering a fixed body of the same size, loaded the same way. */
async function bareRps(body: Buffer): Promise<number> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await loadFromWorker({
      url: `http://127.0.0.1:${port}/`,
      headers: {},
      concurrency: CONCURRENCY,
      durationMs: DURATION_MS,
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

export const serviceSection: Section = {
  name: 'reference service (loopback)',
  async run() {
    const stack = await startBenchStack({ buyerCount: 1 });
    try {
      const shelf = (await (await fetch(`${stack.baseUrl}/api/intel/list`)).json()) as {
        entries: { username: string; reportCount: number }[];
      };
      const handle = shelf.entries[0]!.username;
      const menuUrl = `${stack.baseUrl}/api/intel/reports?username=${handle}`;
      // Free routes: the load comes from a worker thread, so the service has the main thread as in real use.
      const free = (url: string) =>
        loadFromWorker({ url, headers: {}, concurrency: CONCURRENCY, durationMs: DURATION_MS });
      const listBody = Buffer.from(await (await fetch(`${stack.baseUrl}/api/intel/list`)).arrayBuffer());
      // The bare limit is measured before and after the routes: on a shared machine the load moves in between.
      const bareBefore = await bareRps(listBody);
      const listRps = await free(`${stack.baseUrl}/api/intel/list`);
      const menuRps = await free(menuUrl);
      const bareAfter = await bareRps(listBody);
      const bare = (bareBefore + bareAfter) / 2;
      const secretRps = await throughput(
        () => ok(`${menuUrl}&select=all`, { 'X-Library-Secret': stack.librarySecret }),
        CONCURRENCY,
        DURATION_MS,
      );
      const menu = (await (await fetch(menuUrl)).json()) as { reports: { id: string }[] };
      const oneReport = `${menuUrl}&select=range&ids=${menu.reports[0]!.id}`;
      const payments = await signedPayments(stack, 150);
      let next = 0;
      const payWorker = async () => {
        for (let header = payments[next++]; header !== undefined; header = payments[next++]) {
          await ok(oneReport, { 'X-402-Payment': header });
        }
      };
      const paidMs = await timeMsAsync(() => Promise.all(Array.from({ length: 4 }, payWorker)));
      const paidRps = payments.length / (paidMs / 1000);
      return {
        list_rps: round(listRps, 0),
        menu_rps: round(menuRps, 0),
        bare_http_rps: round(bare, 0),
        bare_http_rps_before_and_after: `${round(bareBefore, 0)} / ${round(bareAfter, 0)}`,
        list_vs_bare_ratio: round(bare / listRps),
        menu_vs_bare_ratio: round(bare / menuRps),
        paid_all_with_library_secret_rps: round(secretRps, 0),
        paid_settled_on_chain_rps: round(paidRps, 1),
        paid_requests_settled: payments.length,
        eip712_verifications_per_s: round(await verificationsPerSecond(stack), 0),
        shelf_handles: shelf.entries.length,
      };
    } finally {
      await stack.stop();
    }
  },
};
