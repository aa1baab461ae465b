/**
 * Round axis ticks for money: steps of 1, 2, 2.5 or 5 times a power of ten, never below a cent, from 0 to
 * the first tick at or above the largest value. A chart library's own ticks divide the data's range evenly
 * and land on amounts nobody budgets in ($0.085, $0.255).
 */
const STEPS = [1, 2, 2.5, 5, 10];
const CENT = 0.01;

export function niceTicks(max: number, count = 4): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, CENT];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  // 2.5 cents is not an amount anyone counts in; 25 cents is.
  const steps = power < 0.1 ? STEPS.filter((s) => s !== 2.5) : STEPS;
  const step = Math.max(CENT, (steps.find((s) => s * power >= rough) ?? 10) * power);
  const last = Math.ceil(max / step - 1e-9);
  // Whole multiples, rounded to a tenth of a cent so 0.1 * 3 is 0.3 and not 0.30000000000000004.
  return Array.from({ length: last + 1 }, (_, i) => Math.round(i * step * 1000) / 1000);
}
