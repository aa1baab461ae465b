/**
 * A payment that passed the cap check is counted by the next check before it has a ledger row. The window is
 * real only when signing yields: a hardware wallet or a slow keystore takes its time. Here the keystore's
 * signer waits on a gate the test opens, so a second purchase is judged while the first is being signed and
 * nothing of it is in desk.db yet. Without that count both would pay and the day would go over its cap.
 * An external wallet's signature request counts from the moment it is made: its reservation is taken before
 * the wallet is asked, so a second request is judged with it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { startStack, type Stack } from '../../src/service/stack';
import type { DeskCore, PurchaseStep } from '../../src/core';
import type { PurchaseOutcome } from '../../src/shared/rpc';
import { DeskWallet } from '../../src/core/wallet/wallet';
import {
  balanceOf,
  deskFor,
  deskWithWallet,
  failure,
  ledgerRows,
  onPurchaseSteps,
  PASSPHRASE,
  signExternal,
  tempDir,
} from './helpers';
import { sameDayClock } from './clock';

/** Opens once: every signature asked for before then waits for it. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Each purchase's steps, in order, as core reported them; `reached` resolves when one reaches a step. */
function stepLog() {
  const steps = new Map<string, PurchaseStep[]>();
  const waiters: { step: PurchaseStep; resolve: (id: string) => void }[] = [];
  return {
    record(purchaseId: string, step: PurchaseStep) {
      steps.set(purchaseId, [...(steps.get(purchaseId) ?? []), step]);
      for (const waiter of waiters.splice(0)) {
        if (waiter.step === step) waiter.resolve(purchaseId);
        else waiters.push(waiter);
      }
    },
    reached(step: PurchaseStep): Promise<string> {
      return new Promise((resolve) => waiters.push({ step, resolve }));
    },
    signing: () => [...steps].filter(([, list]) => list.includes('signing')).map(([id]) => id),
  };
}

let stack: Stack;
let data: ReturnType<typeof tempDir>;
let desk: DeskCore;
let payer: `0x${string}`;
let handles: string[];
const log = stepLog();

beforeAll(async () => {
  stack = await startStack({
    seed: { handles: 4, minReportsPerHandle: 2, maxReportsPerHandle: 2 },
    buyerCount: 1,
  });
  data = tempDir('desk-cap-pending-');
  ({ desk, address: payer } = await deskWithWallet(stack, data.dir, 0, {
    // One local day for the file: both purchases are judged against the same day's cap (clock.ts).
    now: sameDayClock(),
    onEvent: onPurchaseSteps((id, step) => log.record(id, step)),
  }));
  // Room for one $0.02 purchase today, not two.
  await desk.handlers['settings.update']({ dailyCapUnits: '30000', perPurchaseCapUnits: '1000000' });
  handles = (await desk.handlers['shelf.list']({})).entries.map((entry) => entry.username);
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await desk?.close();
  await stack?.stop();
  data?.remove();
});

/** The unlocked keystore account, with signTypedData held until the gate opens (then signed for real). */
function holdSignatures(until: Promise<void>): void {
  const real = DeskWallet.prototype.unlockedAccount;
  vi.spyOn(DeskWallet.prototype, 'unlockedAccount').mockImplementation(function (this: DeskWallet) {
    const account = real.call(this);
    if (!account) return null;
    const held: PrivateKeyAccount = {
      ...account,
      signTypedData: async (typed) => {
        await until;
        return account.signTypedData(typed);
      },
    };
    return held;
  });
}

describe('the daily cap while a payment is being signed', () => {
  it('counts a payment past the check that has no ledger row yet, so a second one is refused', async () => {
    const before = await balanceOf(stack, payer);
    const [first, second] = await Promise.all(
      handles.slice(0, 2).map((handle) => desk.handlers['quote.get']({ handle, selection: { kind: 'all' } })),
    );
    if (!first || !second) throw new Error('two handles expected');
    const signatures = gate();
    holdSignatures(signatures.opened);

    const signing = log.reached('signing');
    const firstOutcome = desk.handlers['purchase.start']({
      quoteId: first.quoteId,
      confirmedAmount: first.amount,
    });
    const firstId = await signing;
    // The first payment passed the check and waits for its signature: nothing of it is in the ledger.
    expect(ledgerRows(data.dir)).toEqual([]);
    // A quote and both screens count it already: the facts purchase.start judges (payments/spending.ts).
    const during = await desk.handlers['quote.get']({ handle: second.handle, selection: { kind: 'all' } });
    expect(during.overDailyCap).toBe(true);
    expect((await desk.handlers['purchases.list']({})).spentTodayUnits).toBe('20000');
    expect((await desk.handlers['purchases.spend']({})).todayUnits).toBe('20000');

    // Settles either way: refused (the guarantee), or it too reaches its signature (the bug).
    const secondSigning = log.reached('signing');
    const secondOutcome = desk.handlers['purchase.start']({
      quoteId: second.quoteId,
      confirmedAmount: second.amount,
    });
    const secondSettled = secondOutcome.then(
      (outcome): PurchaseOutcome | Error => outcome,
      (error: unknown): PurchaseOutcome | Error =>
        error instanceof Error ? error : new Error(String(error)),
    );
    await Promise.race([secondSettled, secondSigning]);
    signatures.open();

    expect((await failure(secondOutcome)).code).toBe('over_daily_cap');
    expect(log.signing()).toEqual([firstId]);
    expect((await firstOutcome).status).toBe('completed');

    // On chain and in the ledger: one $0.02 payment, within the $0.03 cap.
    expect(before - (await balanceOf(stack, payer))).toBe(20_000n);
    const rows = ledgerRows(data.dir);
    expect(rows.map((row) => [row.id, row.state, row.amount])).toEqual([[firstId, 'completed', '20000']]);
    const view = await desk.handlers['purchases.list']({});
    expect(BigInt(view.spentTodayUnits) <= BigInt(view.dailyCapUnits)).toBe(true);
  });

  it('counts a signature request the wallet has not answered yet, and frees it when abandoned', async () => {
    const dir = tempDir('desk-cap-pending-external-');
    const external = await deskFor(stack, dir.dir, { now: sameDayClock() });
    try {
      const account = privateKeyToAccount(stack.buyerKeys[0]!);
      await external.handlers['wallet.useExternal']({ address: account.address });
      await external.handlers['settings.update']({ dailyCapUnits: '30000', perPurchaseCapUnits: '1000000' });
      // Two windows, each alone under the cap. The first request reserves its money before the wallet is
      // asked, so the second is judged with it and refused before its wallet is asked anything.
      const quotes = [];
      for (const handle of handles.slice(2, 4))
        quotes.push(await external.handlers['quote.get']({ handle, selection: { kind: 'all' } }));
      const first = await external.handlers['purchase.start']({
        quoteId: quotes[0]!.quoteId,
        confirmedAmount: quotes[0]!.amount,
      });
      if (first.status !== 'needs_signature') throw new Error('expected a signature request');
      const second = await failure(
        external.handlers['purchase.start']({
          quoteId: quotes[1]!.quoteId,
          confirmedAmount: quotes[1]!.amount,
        }),
      );
      expect(second.code).toBe('over_daily_cap');
      // The person gives up on the first in the wallet: its money no longer counts, and the second may go.
      await external.handlers['purchase.abandonSignature']({ purchaseId: first.request.purchaseId });
      const again = await external.handlers['quote.get']({ handle: handles[3]!, selection: { kind: 'all' } });
      const started = await external.handlers['purchase.start']({
        quoteId: again.quoteId,
        confirmedAmount: again.amount,
      });
      if (started.status !== 'needs_signature') throw new Error('expected a signature request');
      const before = await balanceOf(stack, payer);
      const outcome = await external.handlers['purchase.submitSignature']({
        purchaseId: started.request.purchaseId,
        signature: await signExternal(account, started.request),
      });
      expect(outcome.status).toBe('completed');
      expect(before - (await balanceOf(stack, payer))).toBe(20_000n);
      expect(ledgerRows(dir.dir).map((row) => [row.id, row.state])).toEqual([
        [started.request.purchaseId, 'completed'],
      ]);
    } finally {
      await external.close();
      dir.remove();
    }
  });

  it("counts a payment being signed against a handle's budget, whatever case the handle is typed in", async () => {
    const handle = handles[2]!;
    // Raising the daily cap is the keystore's owner's to consent to (decision 0022).
    await desk.handlers['settings.update']({ dailyCapUnits: '1000000', passphrase: PASSPHRASE });
    await desk.handlers['budget.set']({ handle, monthlyUnits: '15000' });
    const ids = (await desk.handlers['menu.get']({ handle })).reports.map((report) => report.id);
    const signatures = gate();
    holdSignatures(signatures.opened);
    const first = await desk.handlers['quote.get']({
      handle: handle.toUpperCase(),
      selection: { kind: 'ids', ids: [ids[0]!] },
    });
    const signing = log.reached('signing');
    const firstOutcome = desk.handlers['purchase.start']({
      quoteId: first.quoteId,
      confirmedAmount: first.amount,
    });
    await signing;
    // The same handle in another case: the payment being signed for it counts against its budget.
    const second = await desk.handlers['quote.get']({
      handle: handle.toLowerCase(),
      selection: { kind: 'ids', ids: [ids[1]!] },
    });
    expect(second.overHandleBudget).toBe(true);
    const refusal = await failure(
      desk.handlers['purchase.start']({ quoteId: second.quoteId, confirmedAmount: second.amount }),
    );
    expect(refusal.code).toBe('over_handle_budget');
    signatures.open();
    expect((await firstOutcome).status).toBe('completed');
  });
});
