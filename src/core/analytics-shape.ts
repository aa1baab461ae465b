/**
 * The spec leaves the shapes of analytics open, so each field is read for what it looks like: a number is a
 * value, labelled numbers (a record of numbers or an array of {label, value}) are bars, rows of numbers are a
 * series, anything else stays as it is. Exports draw these; the report diff compares them.
 */

export type AnalyticsFigure =
  | { kind: 'value'; name: string; value: number }
  | {
      kind: 'bars';
      name: string;
      origin: 'record' | 'array';
      points: { label: string; value: number }[];
      /** Every value a fraction of one: shown as a percentage. */
      percent: boolean;
    }
  | { kind: 'series'; name: string; xLabel: string; yLabel: string; points: { x: number; y: number }[] }
  | { kind: 'other'; name: string; value: unknown };

type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

const fractions = (values: number[]) =>
  values.length > 0 && values.every((v) => v >= 0 && v <= 1) && values.some((v) => !Number.isInteger(v));

function bars(name: string, origin: 'record' | 'array', points: { label: string; value: number }[]) {
  return { kind: 'bars' as const, name, origin, points, percent: fractions(points.map((p) => p.value)) };
}

function fromArray(name: string, rows: unknown[]): AnalyticsFigure {
  if (rows.length === 0 || !rows.every(isRecord)) return { kind: 'other', name, value: rows };
  const first = rows[0] as Json;
  const labelKey = Object.keys(first).find((key) => typeof first[key] === 'string');
  const numberKeys = Object.keys(first).filter((key) => isNumber(first[key]));
  if (labelKey && numberKeys[0]) {
    const valueKey = numberKeys[0];
    const points = rows.flatMap((row) => {
      const label = row[labelKey];
      const value = row[valueKey];
      return typeof label === 'string' && isNumber(value) ? [{ label, value }] : [];
    });
    return bars(name, 'array', points);
  }
  if (numberKeys.length >= 2) {
    const xLabel = numberKeys[0]!;
    const yLabel = numberKeys[numberKeys.length - 1]!;
    const points = rows.flatMap((row) => {
      const x = row[xLabel];
      const y = row[yLabel];
      return isNumber(x) && isNumber(y) ? [{ x, y }] : [];
    });
    return { kind: 'series', name, xLabel, yLabel, points };
  }
  return { kind: 'other', name, value: rows };
}

export function analyticsFigures(analytics: Json): AnalyticsFigure[] {
  return Object.entries(analytics).map(([name, value]): AnalyticsFigure => {
    if (isNumber(value)) return { kind: 'value', name, value };
    if (Array.isArray(value)) return fromArray(name, value);
    if (isRecord(value)) {
      const entries = Object.entries(value);
      if (entries.length > 0 && entries.every(([, v]) => isNumber(v))) {
        return bars(
          name,
          'record',
          entries.map(([label, v]) => ({ label, value: v as number })),
        );
      }
    }
    return { kind: 'other', name, value };
  });
}

/** 0.27 as "27%", 1234.5 as "1,234.5". */
export function figureText(value: number, percent: boolean): string {
  if (percent) return `${Math.round(value * 1000) / 10}%`;
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(value);
}

/** "23 Nov 2026, 17:51 UTC": unambiguous in every locale, unlike 11/23 or 23/11. */
export function readableDate(iso: string): string {
  // Only ISO dates are rewritten: Date() also accepts strings with anything around a date in them.
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(iso)) return iso;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const time = date.toISOString().slice(11, 16);
  return `${day}, ${time} UTC`;
}
