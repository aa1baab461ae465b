/**
 * How a subject changed between two owned reports. The spec does not fix the shapes of analytics and
 * narrative, so each field is read for what it looks like: numbers (and records of numbers) are metrics,
 * arrays of labelled numbers are shares, numeric series are compared by their mean, and narrative
 * sections are compared word by word.
 */
import { diffWords } from 'diff';
import type { IntelReportSnapshot } from '../../shared/wire';
import { analyticsFigures, isNumber } from '../../shared/analytics-shape';
import type {
  DiffSide,
  MetricChange,
  NarrativeChange,
  ReportDiff,
  ShareChange,
  SentimentChange,
} from '../../shared/report-diff';
import { handleKey } from '../../shared/handle-key';

interface Reading {
  metrics: Map<string, number>;
  shares: Map<string, Map<string, number>>;
  /** Fields whose values are all fractions of one (shown as percentages). */
  percentFields: Set<string>;
  series: Map<string, number>;
}

/** Rounded for display and for stable JSON: analytics are two-decimal figures at most. */
function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function readAnalytics(snapshot: IntelReportSnapshot): Reading {
  const reading: Reading = {
    metrics: new Map(),
    shares: new Map(),
    series: new Map(),
    percentFields: new Set(),
  };
  if (isNumber(snapshot.meta.postCount)) reading.metrics.set('postCount', snapshot.meta.postCount);
  for (const figure of analyticsFigures(snapshot.analytics)) {
    if (figure.kind === 'value') reading.metrics.set(figure.name, figure.value);
    else if (figure.kind === 'bars' && figure.origin === 'record') {
      for (const point of figure.points) reading.metrics.set(`${figure.name}.${point.label}`, point.value);
    } else if (figure.kind === 'bars') {
      reading.shares.set(figure.name, new Map(figure.points.map((p) => [p.label, p.value])));
      if (figure.percent) reading.percentFields.add(figure.name);
    } else if (figure.kind === 'series' && figure.points.length > 0) {
      const mean = figure.points.reduce((sum, p) => sum + p.y, 0) / figure.points.length;
      reading.series.set(`${figure.name}.${figure.yLabel}`, round(mean));
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
    // A field is in percent when each report that has it holds fractions of one.
    const percent = [older, newer].every((r) => !r.shares.has(field) || r.percentFields.has(field));
    // A label a report leaves out of a field it has holds none of it: a dropped topic fell by all it had.
    const share = (reading: Reading, values: Map<string, number>, label: string) =>
      values.get(label) ?? (reading.shares.has(field) ? 0 : undefined);
    return [...labels].map((label) => ({
      field,
      label,
      percent,
      ...change(before.get(label), after.get(label)),
      delta: change(share(older, before, label), share(newer, after, label)).delta,
    }));
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
export function diffReports(
  first: DiffInput,
  second: DiffInput,
  between: number | null,
  notOwnedBetween: number | null = null,
): ReportDiff {
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
    sameHandle: handleKey(older.handle) === handleKey(newer.handle),
    reportsBetween: between,
    notOwnedBetween,
    metrics: metricChanges(olderReading, newerReading),
    shares: shareChanges(olderReading, newerReading),
    topicsAdded: [...newerTopics].filter((topic) => !olderTopics.has(topic)),
    topicsDropped: [...olderTopics].filter((topic) => !newerTopics.has(topic)),
    sentiment: sentimentChange(olderReading, newerReading),
    narrative: narrativeChanges(older.snapshot, newer.snapshot),
  };
}
