/**
 * How a subject changed between two owned reports. The spec does not fix the shapes of analytics and
 * narrative, so each field is read for what it looks like: numbers (and records of numbers) are metrics,
 * arrays of labelled numbers are shares, numeric series are compared by their mean, and narrative
 * sections are compared word by word.
 */
import { diffWords } from 'diff';
import type { IntelReportSnapshot } from '../shared/wire';
import type {
  DiffSide,
  MetricChange,
  NarrativeChange,
  ReportDiff,
  ShareChange,
  SentimentChange,
} from '../shared/report-diff';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Rounded for display and for stable JSON: analytics are two-decimal figures at most. */
function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

interface Reading {
  metrics: Map<string, number>;
  shares: Map<string, Map<string, number>>;
  series: Map<string, number>;
}

/** One analytics array: labelled numbers (shares) or a numeric series (mean of its last numeric column). */
function readArray(name: string, rows: unknown[], into: Reading): void {
  if (rows.length === 0 || !rows.every(isRecord)) return;
  const first = rows[0] as Json;
  const labelKey = Object.keys(first).find((key) => typeof first[key] === 'string');
  const numberKeys = Object.keys(first).filter((key) => isNumber(first[key]));
  const valueKey = labelKey ? numberKeys[0] : numberKeys[numberKeys.length - 1];
  if (!valueKey) return;
  if (labelKey) {
    const shares = new Map<string, number>();
    for (const row of rows) {
      const label = row[labelKey];
      const value = row[valueKey];
      if (typeof label === 'string' && isNumber(value)) shares.set(label, value);
    }
    into.shares.set(name, shares);
    return;
  }
  const average = mean(rows.map((row) => row[valueKey]).filter(isNumber));
  if (average !== null) into.series.set(`${name}.${valueKey}`, round(average));
}

function readAnalytics(snapshot: IntelReportSnapshot): Reading {
  const reading: Reading = { metrics: new Map(), shares: new Map(), series: new Map() };
  if (isNumber(snapshot.meta.postCount)) reading.metrics.set('postCount', snapshot.meta.postCount);
  for (const [name, value] of Object.entries(snapshot.analytics)) {
    if (isNumber(value)) reading.metrics.set(name, value);
    else if (Array.isArray(value)) readArray(name, value, reading);
    else if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (isNumber(inner)) reading.metrics.set(`${name}.${key}`, inner);
      }
    }
  }
  return reading;
}

function change(before: number | undefined, after: number | undefined) {
  return {
    before: before ?? null,
    after: after ?? null,
    delta: before === undefined || after === undefined ? null : round(after - before),
  };
}

function metricChanges(older: Reading, newer: Reading): MetricChange[] {
  const names = new Set([...older.metrics.keys(), ...newer.metrics.keys()]);
  const series = new Set([...older.series.keys(), ...newer.series.keys()]);
  return [
    ...[...names].map((name) => ({
      name,
      kind: 'value' as const,
      ...change(older.metrics.get(name), newer.metrics.get(name)),
    })),
    ...[...series].map((name) => ({
      name,
      kind: 'mean' as const,
      ...change(older.series.get(name), newer.series.get(name)),
    })),
  ];
}

function shareChanges(older: Reading, newer: Reading): ShareChange[] {
  const fields = new Set([...older.shares.keys(), ...newer.shares.keys()]);
  return [...fields].flatMap((field) => {
    const before = older.shares.get(field) ?? new Map<string, number>();
    const after = newer.shares.get(field) ?? new Map<string, number>();
    const labels = new Set([...before.keys(), ...after.keys()]);
    return [...labels].map((label) => ({ field, label, ...change(before.get(label), after.get(label)) }));
  });
}

/** Topics are the labels of analytics arrays named for topics; a report without any names none. */
function topicLabels(reading: Reading): Set<string> {
  const labels = new Set<string>();
  for (const [field, shares] of reading.shares) {
    if (/topic/i.test(field)) for (const label of shares.keys()) labels.add(label);
  }
  return labels;
}

function sentimentOf(reading: Reading): number | undefined {
  for (const [name, value] of reading.metrics) if (/sentiment/i.test(name)) return value;
  for (const [name, value] of reading.series) if (/sentiment/i.test(name)) return value;
  return undefined;
}

function sentimentChange(older: Reading, newer: Reading): SentimentChange {
  const { before, after, delta } = change(sentimentOf(older), sentimentOf(newer));
  return { before, after, shift: delta };
}

function sectionText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

function narrativeChanges(older: IntelReportSnapshot, newer: IntelReportSnapshot): NarrativeChange[] {
  const sections = [...new Set([...Object.keys(older.narrative), ...Object.keys(newer.narrative)])];
  return sections.map((section) => {
    const parts = diffWords(sectionText(older.narrative[section]), sectionText(newer.narrative[section])).map(
      (part) => ({
        kind: part.added ? ('added' as const) : part.removed ? ('removed' as const) : ('same' as const),
        text: part.value,
      }),
    );
    return { section, changed: parts.some((part) => part.kind !== 'same'), parts };
  });
}

function side(snapshot: IntelReportSnapshot, handle: string): DiffSide {
  return { id: snapshot.id, handle, createdAt: snapshot.createdAt, model: snapshot.model };
}

export interface DiffInput {
  snapshot: IntelReportSnapshot;
  handle: string;
}

/** Compares two reports, older first whatever order they were given in. */
export function diffReports(first: DiffInput, second: DiffInput, between: number | null): ReportDiff {
  const [older, newer] =
    Date.parse(first.snapshot.createdAt) <= Date.parse(second.snapshot.createdAt)
      ? [first, second]
      : [second, first];
  const olderReading = readAnalytics(older.snapshot);
  const newerReading = readAnalytics(newer.snapshot);
  const olderTopics = topicLabels(olderReading);
  const newerTopics = topicLabels(newerReading);
  return {
    older: side(older.snapshot, older.handle),
    newer: side(newer.snapshot, newer.handle),
    sameHandle: older.handle.toLowerCase() === newer.handle.toLowerCase(),
    reportsBetween: between,
    metrics: metricChanges(olderReading, newerReading),
    shares: shareChanges(olderReading, newerReading),
    topicsAdded: [...newerTopics].filter((topic) => !olderTopics.has(topic)),
    topicsDropped: [...olderTopics].filter((topic) => !newerTopics.has(topic)),
    sentiment: sentimentChange(olderReading, newerReading),
    narrative: narrativeChanges(older.snapshot, newer.snapshot),
  };
}
