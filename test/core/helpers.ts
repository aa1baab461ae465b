/** Core tests: a desk in a temp dir wired to a reference-service stack. */
import { createCipheriv, randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { keccak256, type Address } from 'viem';
import { createDeskCore, type DeskCore, type DeskCoreOptions } from '../../src/core';
import type { Stack } from '../../src/service/stack';
import { expect, vi } from 'vitest';
import { DeskError } from '../../src/core/base/errors';
import Database from 'better-sqlite3';
import { APPLICATION_ID } from '../../src/core/db/open';
import { MIGRATIONS } from '../../src/core/db/migrations';
import type { PurchaseRow } from '../../src/core/ledger/purchases';
import type { ExternalSignRequest } from '../../src/shared/rpc';
import type { DeskEvent, PurchaseStep } from '../../src/shared/events';
import type { PrivateKeyAccount } from 'viem/accounts';
import { reportMenuSchema, shelfListSchema } from '../../src/shared/wire';

export const PASSPHRASE = 'correct horse battery staple';

/** Core's onEvent, following each purchase step as the window does (src/shared/events.ts). */
export function onPurchaseSteps(
  follow: (purchaseId: string, step: PurchaseStep) => void,
): (event: DeskEvent) => void {
  return (event) => {
    if (event.type === 'purchase.step') follow(event.purchaseId, event.step);
  };
}

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A desk.db as an older release left it: the schema of its first `version` migrations, marked as ours. */
export function deskDbAtVersion(file: string, version: number): Database.Database {
  const old = new Database(file);
  for (const migration of MIGRATIONS.slice(0, version)) old.exec(migration);
  old.pragma(`application_id = ${APPLICATION_ID}`);
  old.pragma(`user_version = ${version}`);
  return old;
}

/** The first handle on a stack's shelf and its report ids, read from the service's public routes (no desk). */
export async function firstHandle(stack: Stack): Promise<{ handle: string; ids: string[] }> {
  const shelf = shelfListSchema.parse(await (await fetch(`${stack.baseUrl}/api/intel/list`)).json());
  const handle = shelf.entries[0]?.username;
  if (!handle) throw new Error('the stack has no handle on its shelf');
  const menu = reportMenuSchema.parse(
    await (await fetch(`${stack.baseUrl}/api/intel/reports?username=${handle}`)).json(),
  );
  return { handle, ids: menu.reports.map((r) => r.id) };
}

/** A test desk's options: the stack's demo service, chain and token, one attempt, a fast wallet seal. */
export function deskOptions(
  stack: Stack,
  dataDir: string,
  options: Partial<DeskCoreOptions> = {},
): DeskCoreOptions {
  return {
    dataDir,
    serviceUrl: stack.baseUrl,
    demo: true,
    demoAsset: stack.asset,
    rpcUrl: stack.rpcUrl,
    attempts: 1,
    // Wallet imports dominate test time at the real cost; wallet-sealing.test.ts covers the default.
    walletKdfCost: 'fast-insecure-for-tests',
    ...options,
  };
}

export async function deskFor(
  stack: Stack,
  dataDir: string,
  options: Partial<DeskCoreOptions> = {},
): Promise<DeskCore> {
  return createDeskCore(deskOptions(stack, dataDir, options));
}

export async function deskWithWallet(
  stack: Stack,
  dataDir: string,
  buyerIndex = 0,
  options: Partial<DeskCoreOptions> = {},
) {
  const desk = await deskFor(stack, dataDir, options);
  const key = stack.buyerKeys[buyerIndex];
  if (!key) throw new Error(`no buyer ${buyerIndex}`);
  await desk.handlers['wallet.import']({ privateKey: key, passphrase: PASSPHRASE });
  return { desk, address: privateKeyToAccount(key).address };
}

export async function balanceOf(stack: Stack, owner: Address): Promise<bigint> {
  return (await stack.chain.clients.publicClient.readContract({
    address: stack.asset,
    abi: stack.chain.token.contract.abi,
    functionName: 'balanceOf',
    args: [owner],
  })) as bigint;
}

/** A standard v3 keystore, as geth or MetaMask export it (small scrypt cost for speed). */
export function v3Keystore(privateKey: `0x${string}`, password: string): string {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  const derived = scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 });
  const cipher = createCipheriv('aes-128-ctr', derived.subarray(0, 16), iv);
  const ciphertext = Buffer.concat([cipher.update(Buffer.from(privateKey.slice(2), 'hex')), cipher.final()]);
  return JSON.stringify({
    version: 3,
    id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
    address: privateKeyToAccount(privateKey).address.slice(2).toLowerCase(),
    crypto: {
      cipher: 'aes-128-ctr',
      ciphertext: ciphertext.toString('hex'),
      cipherparams: { iv: iv.toString('hex') },
      kdf: 'scrypt',
      kdfparams: { dklen: 32, salt: salt.toString('hex'), n: 1024, r: 8, p: 1 },
      mac: keccak256(Buffer.concat([derived.subarray(16, 32), ciphertext])).slice(2),
    },
  });
}

/** A wallet.json as versions before the upgrade wrote it: scrypt N=2^15, no associated data. */
export function legacyWalletFile(privateKey: `0x${string}`, passphrase: string): string {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = scryptSync(passphrase.normalize('NFKC'), salt, 32, {
    N: 1 << 15,
    r: 8,
    p: 1,
    maxmem: 64 << 20,
  });
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(Buffer.from(privateKey.slice(2), 'hex')), cipher.final()]);
  return JSON.stringify({
    version: 1,
    address: privateKeyToAccount(privateKey).address,
    sealed: {
      kdf: 'scrypt',
      salt: salt.toString('base64'),
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ciphertext: ciphertext.toString('base64'),
    },
    vaultWrapped: false,
  });
}

/** The DeskError an action rejects with; fails the test if it resolves or throws anything else. */
export async function failure(action: Promise<unknown>): Promise<DeskError> {
  try {
    await action;
  } catch (error) {
    expect(error).toBeInstanceOf(DeskError);
    return error as DeskError;
  }
  throw new Error('expected a DeskError');
}

/** Quotes all of a handle's reports and buys them at the quoted amount, through any host's handlers. */
export async function buyAll(desk: Pick<DeskCore, 'handlers'>, handle: string) {
  const quote = await desk.handlers['quote.get']({ handle, selection: { kind: 'all' } });
  const outcome = await desk.handlers['purchase.start']({
    quoteId: quote.quoteId,
    confirmedAmount: quote.amount,
  });
  return { quote, outcome };
}

/** What an external wallet answers to a desk's signature request: the typed data signed by `account`. */
export function signExternal(
  account: PrivateKeyAccount,
  request: ExternalSignRequest,
): Promise<`0x${string}`> {
  const { typedData } = request;
  return account.signTypedData({
    ...typedData,
    domain: { ...typedData.domain, verifyingContract: typedData.domain.verifyingContract as `0x${string}` },
  });
}

/** The purchases in a desk's ledger, read from desk.db directly (read-only), oldest first. */
export function ledgerRows(dataDir: string): PurchaseRow[] {
  const db = new Database(path.join(dataDir, 'desk.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT * FROM purchases ORDER BY created_at, rowid').all() as PurchaseRow[];
  } finally {
    db.close();
  }
}

export interface StoredSnapshot {
  id: string;
  service_url: string;
  handle: string;
  purchase_id: string | null;
}

/** The service and handle each stored snapshot belongs to, read from desk.db directly (read-only). */
export function storedSnapshots(dataDir: string): StoredSnapshot[] {
  const db = new Database(path.join(dataDir, 'desk.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare('SELECT id, service_url, handle, purchase_id FROM snapshots ORDER BY id')
      .all() as StoredSnapshot[];
  } finally {
    db.close();
  }
}

/** Waits for the background indexing pass to finish; returns each `indexed` count it saw on the way. */
export async function indexingUntilDone(store: {
  indexing(): { indexed: number; total: number } | null;
}): Promise<number[]> {
  const seen: number[] = [];
  await vi.waitFor(
    () => {
      const progress = store.indexing();
      if (progress) seen.push(progress.indexed);
      expect(progress).toBeNull();
    },
    { timeout: 10_000, interval: 1 },
  );
  return seen;
}
