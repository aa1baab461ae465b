/**
 * A window following a team whose server does not answer tries again after a delay that doubles up to its
 * cap, never in a tight loop, and a closed desk does not start again. The server is a Unix socket folder where
 * nothing listens: each try is a real connection refused at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TeamAuthority } from '../../src/core/team/authority';
import { TeamFollow } from '../../src/core/team/team-follow';

const folder = mkdtempSync(path.join(tmpdir(), 'desk-no-pg-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

class CountedAuthority extends TeamAuthority {
  readonly tries: number[] = [];
  private waiter: { count: number; resolve: () => void } | null = null;

  override listen(onReports: () => void, onLost: (error: unknown) => void) {
    this.tries.push(performance.now());
    if (this.waiter && this.tries.length >= this.waiter.count) this.waiter.resolve();
    return super.listen(onReports, onLost);
  }

  reached(count: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiter = { count, resolve };
    });
  }
}

describe('following a team that does not answer', () => {
  it('tries again after 20, 40, 80, 80 ms (doubling to the cap), and nothing once stopped', async () => {
    const authority = new CountedAuthority({
      url: `postgresql://nobody@/team?host=${encodeURIComponent(folder)}`,
      password: null,
    });
    let syncs = 0;
    const follow = new TeamFollow({
      authority: () => authority,
      sync: async () => {
        syncs++;
      },
      firstRetryMs: 20,
      maxRetryMs: 80,
    });
    const fifth = authority.reached(5);
    follow.start();
    await fifth;
    await follow.stop();
    const gaps = authority.tries.slice(1).map((at, i) => at - authority.tries[i]!);
    // Timers never fire early; a loaded machine may fire them late, so only the floor is checked.
    [20, 40, 80, 80].forEach((floor, i) => expect(gaps[i]).toBeGreaterThanOrEqual(floor - 1));
    expect(syncs).toBe(0);
    const tries = authority.tries.length;
    // Stopped (the desk closed), joining or leaving a team connects nothing.
    await follow.restart();
    expect(authority.tries.length).toBe(tries);
    await authority.close();
  });
});
