import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../src/service/stack';
import { serviceOrigin } from '../../src/core/library/library-secret';
import { encryptedOrLocal } from '../../src/shared/transport';
import { openDeskDb } from '../../src/core/db/open';
import { SettingsStore } from '../../src/core/settings/settings';
import { balanceOf, deskFor, deskWithWallet, failure, firstHandle, tempDir } from './helpers';
import { startHostileProxy, type HostileProxy } from './hostile-proxy';

let stack: Stack;
let handle: string;
let ids: string[];
let elsewhere: HostileProxy;
const dirs: ReturnType<typeof tempDir>[] = [];

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 2, minReportsPerHandle: 6, maxReportsPerHandle: 6 },
    buyerCount: 2,
  });
  // Another origin that answers like the service: the secret must never reach it.
  elsewhere = await startHostileProxy(stack.baseUrl);
  ({ handle, ids } = await firstHandle(stack));
});
afterAll(async () => {
  await elsewhere?.close();
  await stack?.stop();
  dirs.forEach((dir) => dir.remove());
});

function dataDir(): string {
  const dir = tempDir('desk-library-secret-');
  dirs.push(dir);
  return dir.dir;
}

const one = (index: number) => ({ kind: 'ids' as const, ids: [ids[index]!] });

describe('the library secret is bound to the service it was entered for', () => {
  it('is never sent to another service the renderer selects, and works again back at its own', async () => {
    const desk = await deskFor(stack, dataDir());
    const set = await desk.handlers['settings.setLibrarySecret']({ secret: stack.librarySecret });
    expect(set).toMatchObject({
      librarySecretSet: true,
      librarySecretAccepted: true,
      librarySecretOrigin: new URL(stack.baseUrl).origin,
    });
    const moved = await desk.handlers['settings.update']({ serviceUrl: elsewhere.url });
    expect(moved).toMatchObject({
      librarySecretSet: false,
      librarySecretOrigin: new URL(stack.baseUrl).origin,
    });
    const error = await failure(desk.handlers['dossier.open']({ handle }));
    expect(error.code).toBe('library_secret_other_service');
    expect(error.message).toContain(new URL(stack.baseUrl).origin);
    const quote = await desk.handlers['quote.get']({ handle, selection: one(0) });
    expect(quote.paidWith).toBe('payment');
    expect(elsewhere.authorizationsSeen).toEqual([]);

    await desk.handlers['settings.update']({ serviceUrl: stack.baseUrl });
    expect((await desk.handlers['dossier.open']({ handle })).bundle.username).toBe(handle);
    expect(elsewhere.authorizationsSeen).toEqual([]);
    await desk.close();
  });

  it('keeps a save on the service it started on when the service changes halfway', async () => {
    let switchService: (() => Promise<unknown>) | null = null;
    const desk = await deskFor(stack, dataDir(), {
      // The renderer changes the service URL while the save's first request is under way.
      fetch: async (input, init) => {
        const answer = await fetch(input, init);
        const url = input;
        if (url.includes('/api/intel/bundle') && (init?.method ?? 'GET') === 'GET' && switchService) {
          const run = switchService;
          switchService = null;
          await run();
        }
        return answer;
      },
    });
    await desk.handlers['settings.setLibrarySecret']({ secret: stack.librarySecret });
    const opened = await desk.handlers['dossier.open']({ handle });
    switchService = () => desk.handlers['settings.update']({ serviceUrl: elsewhere.url });
    const saved = await desk.handlers['dossier.save']({
      handle,
      bundle: { ...opened.bundle, posts: [...opened.bundle.posts, { id: 'post_halfway', text: 'halfway' }] },
      baseGatheredAt: opened.bundle.gatheredAt,
    });
    expect(saved.status).toBe('saved');
    expect(elsewhere.authorizationsSeen).toEqual([]);
    await desk.close();
  });

  it('is sent only over https, except to this computer', async () => {
    expect(encryptedOrLocal('https://reports.example.com')).toBe(true);
    expect(encryptedOrLocal('http://127.0.0.1:8402')).toBe(true);
    expect(encryptedOrLocal('http://[::1]:8402')).toBe(true);
    expect(encryptedOrLocal('http://localhost:8402')).toBe(true);
    expect(encryptedOrLocal('http://reports.example.com')).toBe(false);
    expect(encryptedOrLocal('http://127.0.0.1.example.com')).toBe(false);
    expect(encryptedOrLocal(serviceOrigin('mailto:staff@example.com'))).toBe(false);
    const dir = dataDir();
    // Saved by a version before plain http off this computer was refused for the service itself.
    const { db } = openDeskDb(path.join(dir, 'desk.db'));
    new SettingsStore(db).update({ serviceUrl: 'http://192.0.2.7:8402' });
    db.close();
    const desk = await deskFor(stack, dir, { serviceUrl: undefined });
    const error = await failure(desk.handlers['settings.setLibrarySecret']({ secret: 'first-party secret' }));
    expect(error.code).toBe('library_secret_insecure');
    expect(error.message).toMatch(/https/);
    expect(existsSync(path.join(dir, 'library-secret.sealed'))).toBe(false);
    await desk.close();
  });
});

describe('a secret the service refused', () => {
  it('never replaces buying, across a restart, until it is entered again', async () => {
    const dir = dataDir();
    const { desk, address } = await deskWithWallet(stack, dir);
    const refused = await desk.handlers['settings.setLibrarySecret']({ secret: 'not the secret' });
    expect(refused).toMatchObject({ librarySecretSet: true, librarySecretAccepted: false });
    const quote = await desk.handlers['quote.get']({ handle, selection: one(0) });
    expect(quote.paidWith).toBe('payment');
    const before = await balanceOf(stack, address);
    const bought = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(bought).toMatchObject({ status: 'completed', purchase: { paidWith: 'payment' } });
    expect(before - (await balanceOf(stack, address))).toBe(BigInt(quote.amount));
    await desk.close();

    const again = await deskFor(stack, dir);
    expect(await again.handlers['settings.get']({})).toMatchObject({ librarySecretAccepted: false });
    expect((await again.handlers['quote.get']({ handle, selection: one(1) })).paidWith).toBe('payment');
    await again.handlers['settings.setLibrarySecret']({ secret: stack.librarySecret });
    expect((await again.handlers['quote.get']({ handle, selection: one(1) })).paidWith).toBe(
      'library_secret',
    );
    await again.close();
  });

  it('is marked refused when a read is refused, and the next price is for buying', async () => {
    let checks = 0;
    const desk = await deskFor(stack, dataDir(), {
      // The service cannot be asked when the secret is entered, so it stays unchecked until first used.
      fetch: async (input, init) => {
        const url = input;
        if (url.includes('/api/intel/list') && checks++ === 0) throw new TypeError('fetch failed');
        return fetch(input, init);
      },
    });
    const unchecked = await desk.handlers['settings.setLibrarySecret']({ secret: 'not the secret' });
    expect(unchecked).toMatchObject({ librarySecretSet: true, librarySecretAccepted: null });
    const quote = await desk.handlers['quote.get']({ handle, selection: one(2) });
    expect(quote.paidWith).toBe('library_secret');
    const error = await failure(
      desk.handlers['purchase.start']({ quoteId: quote.quoteId, confirmedAmount: quote.amount }),
    );
    expect(error.code).toBe('invalid_library_secret');
    expect(error.message).toMatch(/nothing was paid/);
    expect(await desk.handlers['settings.get']({})).toMatchObject({ librarySecretAccepted: false });
    expect((await desk.handlers['quote.get']({ handle, selection: one(2) })).paidWith).toBe('payment');
    await desk.close();
  });
});

describe('reading with the secret signs nothing', () => {
  it('reads from a real service on the local chain, where buying is refused', async () => {
    const desk = await deskFor(stack, dataDir(), { demo: false });
    const refusal = await failure(desk.handlers['quote.get']({ handle, selection: one(3) }));
    expect(refusal.code).toBe('network_not_allowed');
    await desk.handlers['settings.setLibrarySecret']({ secret: stack.librarySecret });
    const quote = await desk.handlers['quote.get']({ handle, selection: one(3) });
    expect(quote).toMatchObject({ paidWith: 'library_secret', network: 'eip155:31337' });
    const read = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
    });
    expect(read).toMatchObject({
      status: 'completed',
      purchase: { paidWith: 'library_secret', amount: '0' },
    });

    // The same price can never be paid once the secret is gone.
    const held = await desk.handlers['quote.get']({ handle, selection: one(4) });
    await desk.handlers['settings.clearLibrarySecret']({});
    const unpaid = await failure(
      desk.handlers['purchase.start']({ quoteId: held.quoteId, confirmedAmount: held.amount }),
    );
    expect(unpaid.code).toBe('quote_secret_only');
    expect((await desk.handlers['purchases.list']({})).purchases).toHaveLength(1);
    await desk.close();
  });
});

describe('paying or reading is the caller’s choice', () => {
  it('pays when told to with the secret set, and reads only with a secret to read with', async () => {
    const { desk, address } = await deskWithWallet(stack, dataDir(), 1);
    await desk.handlers['settings.setLibrarySecret']({ secret: stack.librarySecret });
    const quote = await desk.handlers['quote.get']({ handle, selection: one(5) });
    expect(quote).toMatchObject({ paidWith: 'library_secret', secretAvailable: true, payable: true });
    const before = await balanceOf(stack, address);
    const bought = await desk.handlers['purchase.start']({
      quoteId: quote.quoteId,
      confirmedAmount: quote.amount,
      paidWith: 'payment',
    });
    expect(bought).toMatchObject({ status: 'completed', purchase: { paidWith: 'payment' } });
    expect(before - (await balanceOf(stack, address))).toBe(BigInt(quote.amount));

    await desk.handlers['settings.clearLibrarySecret']({});
    const next = await desk.handlers['quote.get']({ handle, selection: one(4) });
    expect(next).toMatchObject({ paidWith: 'payment', secretAvailable: false });
    const refused = await failure(
      desk.handlers['purchase.start']({
        quoteId: next.quoteId,
        confirmedAmount: next.amount,
        paidWith: 'library_secret',
      }),
    );
    expect(refused.code).toBe('library_secret_required');
    expect(await balanceOf(stack, address)).toBe(before - BigInt(quote.amount));
    await desk.close();
  });
});

describe("the demo's secret", () => {
  it('is offered in demo mode and used by core without ever coming out', async () => {
    const demo = await deskFor(stack, dataDir(), { demoLibrarySecret: stack.librarySecret });
    const offered = await demo.handlers['settings.get']({});
    expect(offered).toMatchObject({ demoLibrarySecretOffered: true, librarySecretSet: false });
    const used = await demo.handlers['settings.useDemoLibrarySecret']({});
    expect(used).toMatchObject({ librarySecretSet: true, librarySecretAccepted: true });
    expect(JSON.stringify(used)).not.toContain(stack.librarySecret);
    await demo.close();

    const real = await deskFor(stack, dataDir(), { demo: false, demoLibrarySecret: stack.librarySecret });
    expect(await real.handlers['settings.get']({})).toMatchObject({ demoLibrarySecretOffered: false });
    expect((await failure(real.handlers['settings.useDemoLibrarySecret']({}))).code).toBe('no_demo_secret');
    await real.close();
  });
});
