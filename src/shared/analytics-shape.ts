/**
 * The spec leaves the shapes of analytics open, so each field is read for what it looks like: a number is a
 * value, labelled numbers (a record of numbers or an array of {label, value}) are bars, rows with an ISO
 * date and a number are a series over time, rows of numbers are a series, anything else stays as it is.
 * One reading for every place that shows analytics: the Report screen's charts, the Markdown and PDF
 * exports, and the report diff. Plain TypeScript: the renderer imports it too.
 */

export interface SeriesPoint {
  /** With `dates`, milliseconds since the epoch (UTC); otherwise the row's own number. */
  x: number;
  y: number;
}

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
  | {
      kind: 'series';
      name: string;
      xLabel: string;
      yLabel: string;
      /** x is a date: sorted oldest first, drawn on a date axis. */
      dates: boolean;
      points: SeriesPoint[];
    }
  | { kind: 'other'; name: string; value: unknown };

type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

// Only ISO dates count: Date.parse also accepts strings with anything around a date in them.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** An ISO date or date-time as milliseconds (a bare day is midnight UTC); null for anything else. */
export function isoTime(value: unknown): number | null {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return null;
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(time) ? null : time;
}

const fractions = (values: number[]) =>
  values.length > 0 && values.every((v) => v >= 0 && v <= 1) && values.some((v) => !Number.isInteger(v));

function bars(name: string, origin: 'record' | 'array', points: { label: string; value: number }[]) {
  return { kind: 'bars' as const, name, origin, points, percent: fractions(points.map((p) => p.value)) };
}

function series(name: string, rows: Json[], xLabel: string, yLabel: string, dates: boolean): AnalyticsFigure {
  const points = rows.flatMap((row) => {
    const x = dates ? isoTime(row[xLabel]) : row[xLabel];
    const y = row[yLabel];
    return isNumber(x) && isNumber(y) ? [{ x, y }] : [];
  });
  if (dates) points.sort((a, b) => a.x - b.x);
  return { kind: 'series', name, xLabel, yLabel, dates, points };
}

function fromArray(name: string, rows: unknown[]): AnalyticsFigure {
  if (rows.length === 0 || !rows.every(isRecord)) return { kind: 'other', name, value: rows };
  const first = rows[0] as Json;
  const keys = Object.keys(first);
  const numberKeys = keys.filter((key) => isNumber(first[key]));
  const dateKey = keys.find((key) => rows.every((row) => isoTime(row[key]) !== null));
  if (dateKey && numberKeys[0]) return series(name, rows, dateKey, numberKeys[0], true);
  const labelKey = keys.find((key) => typeof first[key] === 'string');
  if (labelKey && numberKeys[0]) {
    const valueKey = numberKeys[0];
    const points = rows.flatMap((row) => {
      const label = row[labelKey];
      const value = row[valueKey];
      return typeof label === 'string' && isNumber(value) ? [{ label, value }] : [];
    });
    return bars(name, 'array', points);
  }
  if (numberKeys.length >= 2) return series(name, rows, numberKeys[0]!, numberKeys[1]!, false);
  return { kind: 'other', name, value: rows };
}

export function analyticsFigure(name: string, value: unknown): AnalyticsFigure {
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
}

export function analyticsFigures(analytics: Json): AnalyticsFigure[] {
  return Object.entries(analytics).map(([name, value]) => analyticsFigure(name, value));
}

const numbers = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** 0.27 as "27%", 1234.5 as "1,234.5". */
export function figureText(value: number, percent: boolean): string {
  if (percent) return `${Math.round(value * 1000) / 10}%`;
  return numbers.format(value);
}

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "12 Nov 2026" (UTC, as the reports' dates are). */
export function readableDay(time: number): string {
  return dayFormat.format(time);
}

/** "23 Nov 2026, 17:51 UTC": unambiguous in every locale, unlike 11/23 or 23/11. */
export function readableDate(iso: string): string {
  const time = isoTime(iso);
  if (time === null) return iso;
  return `${readableDay(time)}, ${new Date(time).toISOString().slice(11, 16)} UTC`;
}

/** A point of a dated series: the day alone when the series is by day, the time too when it is not. */
export function seriesDate(time: number): string {
  return time % 86_400_000 === 0
    ? readableDay(time)
    : `${readableDay(time)}, ${new Date(time).toISOString().slice(11, 16)} UTC`;
}
