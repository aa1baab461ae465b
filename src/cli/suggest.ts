/**
 * "Did you mean": the nearest of the known words to a mistyped one, so a typo gets the command or flag that
 * was meant instead of Node's own parser text.
 */

/** Edits (insert, delete, substitute, swap two neighbours) between two words. */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      const row = rows[i];
      if (row) row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The known word nearest to `typed`, when it is near enough to be what was meant; else null. */
export function nearest(typed: string, known: readonly string[]): string | null {
  const word = typed.toLowerCase();
  // Short words tolerate one slip, longer ones about one in three characters.
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: { word: string; edits: number } | null = null;
  for (const candidate of known) {
    const edits = candidate.startsWith(word) && word.length >= 3 ? 0.5 : distance(word, candidate);
    if (edits <= limit && (best === null || edits < best.edits)) best = { word: candidate, edits };
  }
  return best?.word ?? null;
}

/** " Did you mean x?" or nothing. */
export const didYouMean = (typed: string, known: readonly string[]): string => {
  const match = nearest(typed, known);
  return match === null ? '' : ` Did you mean ${match}?`;
};
