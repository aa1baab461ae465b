/**
 * The chaos run's one source of chance: the service's seeded mulberry32, so a seed printed by a failing run
 * replays the same draws on any machine.
 */
import { Prng } from '../../src/service/store/prng';

export { Prng };

/** One of the keys, each drawn in proportion to its weight. */
export function weighted<K extends string>(prng: Prng, weights: Readonly<Record<K, number>>): K {
  const entries = Object.entries(weights) as [K, number][];
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = prng.next() * total;
  for (const [key, weight] of entries) {
    roll -= weight;
    if (roll < 0) return key;
  }
  const last = entries.at(-1);
  if (!last) throw new Error('weighted pick from no choices');
  return last[0];
}

/** A fresh seed for a run that was not given one: any 32-bit number. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 32);
}
