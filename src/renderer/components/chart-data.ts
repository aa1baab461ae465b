/**
 * Analytics shapes are not fixed by the spec, so each field is read for what it looks like: labelled numbers
 * become bars (shares of a whole as percentages), dated series become lines over a date axis, numbered
 * series become lines, anything else is shown as plain values.
 */
export type Chartable =
  | { kind: 'bars'; points: { label: string; value: number }[]; percent: boolean }
  | { kind: 'line'; points: { x: number; y: number }[]; xLabel: string; yLabel: string; dates: boolean }
  | { kind: 'stat'; value: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;

function dateOf(value: unknown): number | null {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return null;
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(time) ? null : time;
}

/** Parts of one whole: every value between 0 and 1 and together about 1 (0.27 reads as 27%). */
function isShares(values: number[]): boolean {
  const total = values.reduce((a, b) => a + b, 0);
  return values.length > 1 && values.every((v) => v >= 0 && v <= 1) && Math.abs(total - 1) <= 0.03;
}

function bars(points: { label: string; value: number }[]): Chartable {
  return { kind: 'bars', points, percent: isShares(points.map((p) => p.value)) };
}

export function chartable(value: unknown): Chartable | null {
  if (typeof value === 'number' && Number.isFinite(value)) return { kind: 'stat', value };
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length > 0 && entries.every(([, v]) => typeof v === 'number' && Number.isFinite(v))) {
      return bars(entries.map(([label, v]) => ({ label, value: v as number })));
    }
    return null;
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every(isRecord)) return null;
  const first = value[0] as Record<string, unknown>;
  const numberKeys = Object.keys(first).filter((k) => typeof first[k] === 'number');
  const dateKey = Object.keys(first).find((k) => value.every((row) => dateOf(row[k]) !== null));
  if (dateKey && numberKeys[0]) {
    const yKey = numberKeys[0];
    return {
      kind: 'line',
      dates: true,
      xLabel: dateKey,
      yLabel: yKey,
      points: value
        .map((row) => ({ x: dateOf(row[dateKey]) ?? 0, y: Number(row[yKey]) || 0 }))
        .sort((a, b) => a.x - b.x),
    };
  }
  const labelKey = Object.keys(first).find((k) => typeof first[k] === 'string');
  if (labelKey && numberKeys[0]) {
    const valueKey = numberKeys[0];
    return bars(value.map((row) => ({ label: String(row[labelKey]), value: Number(row[valueKey]) || 0 })));
  }
  if (numberKeys.length >= 2) {
    const [xKey, yKey] = numberKeys as [string, string];
    return {
      kind: 'line',
      dates: false,
      xLabel: xKey,
      yLabel: yKey,
      points: value.map((row) => ({ x: Number(row[xKey]) || 0, y: Number(row[yKey]) || 0 })),
    };
  }
  return null;
}

export function formatValue(value: number, percent: boolean): string {
  if (percent) return `${Math.round(value * 100)}%`;
  return Number.isInteger(value)
    ? value.toLocaleString('en-US')
    : value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** A date tick: "Nov 6" (UTC, as the reports' dates are). */
export function shortDate(time: number): string {
  return new Date(time).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}
