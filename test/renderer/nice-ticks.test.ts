/** The Purchases charts' money axes: round steps from zero, whatever the spend. */
import { describe, expect, it } from 'vitest';
import { niceTicks } from '../../src/renderer/components/nice-ticks';

describe('niceTicks', () => {
  it('steps by 1, 2, 2.5 or 5 times a power of ten and covers the largest value', () => {
    // The spend of issue 28's chart, whose ticks were $0.085 and $0.255.
    expect(niceTicks(0.34)).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
    expect(niceTicks(0.05)).toEqual([0, 0.02, 0.04, 0.06]);
    expect(niceTicks(1)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(37)).toEqual([0, 10, 20, 30, 40]);
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500]);
  });

  it('never steps below a cent, and gives an axis for nothing spent', () => {
    expect(niceTicks(0.01)).toEqual([0, 0.01]);
    expect(niceTicks(0.03)).toEqual([0, 0.01, 0.02, 0.03]);
    expect(niceTicks(0)).toEqual([0, 0.01]);
  });

  it('gives only amounts a person would write down', () => {
    expect(niceTicks(0.09)).toEqual([0, 0.05, 0.1]);
    for (const max of [0.07, 0.09, 0.1, 0.13, 0.29, 0.61, 2.2, 9.99, 480])
      for (const tick of niceTicks(max)) expect(Math.round(tick * 100) / 100).toBe(tick);
  });
});
