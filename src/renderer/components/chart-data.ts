/**
 * Analytics shapes are not fixed by the spec, so each field is read for what it looks like: labelled numbers
 * become bars, numbered series become lines, anything else is shown as plain values.
 */
export type Chartable =
  | { kind: 'bars'; points: { label: string; value: number }[] }
  | { kind: 'line'; points: { x: number; y: number }[]; yLabel: string }
  | { kind: 'stat'; value: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function chartable(value: unknown): Chartable | null {
  if (typeof value === 'number' && Number.isFinite(value)) return { kind: 'stat', value };
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length > 0 && entries.every(([, v]) => typeof v === 'number' && Number.isFinite(v))) {
      return { kind: 'bars', points: entries.map(([label, v]) => ({ label, value: v as number })) };
    }
    return null;
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every(isRecord)) return null;
  const first = value[0] as Record<string, unknown>;
  const labelKey = Object.keys(first).find((k) => typeof first[k] === 'string');
  const numberKeys = Object.keys(first).filter((k) => typeof first[k] === 'number');
  if (labelKey && numberKeys[0]) {
    const valueKey = numberKeys[0];
    return {
      kind: 'bars',
      points: value.map((row) => ({ label: String(row[labelKey]), value: Number(row[valueKey]) || 0 })),
    };
  }
  if (numberKeys.length >= 2) {
    const [xKey, yKey] = numberKeys as [string, string];
    return {
      kind: 'line',
      yLabel: yKey,
      points: value.map((row) => ({ x: Number(row[xKey]) || 0, y: Number(row[yKey]) || 0 })),
    };
  }
  return null;
}
