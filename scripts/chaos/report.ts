/** The closing lines of a chaos run: one per invariant with its counts, the seed, and the faults drawn. */
import type { ChaosResult } from './driver';

export function reportLines(result: ChaosResult): string[] {
  const lines = [
    `chaos seed=${result.seed} purchases=${result.purchases} duration=${(result.durationMs / 1000).toFixed(1)}s stopped_by=${result.stopReason}`,
    `faults ${result.faults.line()}`,
    `kills desk=${result.deskKills} service=${result.serviceKills}${result.faults.drawn.has('pg_crash') ? ` postgres=${result.pgCrashes}` : ''}`,
    `outcomes ${[...result.outcomes]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([label, n]) => `${label}=${n}`)
      .join(' ')}`,
  ];
  for (const invariant of result.invariants) {
    const verdict = invariant.violations.length === 0 ? 'ok' : `VIOLATED x${invariant.violations.length}`;
    lines.push(`${verdict.padEnd(14)} ${invariant.name}: ${invariant.counts}`);
    for (const violation of invariant.violations.slice(0, 20)) lines.push(`    ${violation}`);
  }
  lines.push(
    result.violations === 0
      ? `violations=0 seed=${result.seed}`
      : `violations=${result.violations}: reproduce with npm run chaos -- --seed ${result.seed} --purchases ${result.purchases}${result.faults.drawn.has('pg_crash') ? ' --team' : ''}`,
  );
  return lines;
}
