/**
 * How a subject changed between two owned reports, as text (word diff in git's markup): what `intel-desk diff`
 * prints and the MCP server's diff tool answers.
 */
import type { MetricChange, NarrativeChange, ReportDiff, ShareChange } from '../../shared/report-diff';
import { table } from './terminal';

function signed(value: number | null, format: (n: number) => string): string {
  if (value === null) return '';
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${format(Math.abs(value))}`;
}

const plain = (n: number) => String(Math.round(n * 100) / 100);
const percent = (n: number) => `${Math.round(n * 1000) / 10}%`;
const points = (n: number) => `${Math.round(n * 1000) / 10} pts`;
const orDash = (value: number | null, format: (n: number) => string) =>
  value === null ? '—' : format(value);

function metricRows(metrics: MetricChange[]) {
  return metrics.map((m) => ({
    metric: m.kind === 'mean' ? `${m.name} (mean)` : m.name,
    before: orDash(m.before, plain),
    after: orDash(m.after, plain),
    change: signed(m.delta, plain),
  }));
}

/** Shares of one are shown as percentages, their changes in percentage points. */
function shareRows(shares: ShareChange[]) {
  return shares.map((s) => ({
    share: `${s.field}: ${s.label}`,
    before: orDash(s.before, s.percent ? percent : plain),
    after: orDash(s.after, s.percent ? percent : plain),
    change: signed(s.delta, s.percent ? points : plain),
  }));
}

function narrativeText(sections: NarrativeChange[]): string {
  const changed = sections.filter((section) => section.changed);
  if (changed.length === 0) return 'Narrative: unchanged';
  return [
    'Narrative ([-removed-] {+added+}):',
    ...changed.map(
      (section) =>
        `  ${section.section}: ${section.parts
          .map((part) =>
            part.kind === 'added'
              ? `{+${part.text}+}`
              : part.kind === 'removed'
                ? `[-${part.text}-]`
                : part.text,
          )
          .join('')}`,
    ),
  ].join('\n');
}

function heading(diff: ReportDiff): string {
  const describe = (side: ReportDiff['older']) =>
    `${side.id} (@${side.handle}, ${side.createdAt.slice(0, 16).replace('T', ' ')}, ${side.model})`;
  const distance =
    diff.reportsBetween === null
      ? 'different handles'
      : diff.reportsBetween === 0
        ? 'consecutive in your library'
        : `${diff.reportsBetween} owned report${diff.reportsBetween === 1 ? '' : 's'} between them`;
  return `${describe(diff.older)} → ${describe(diff.newer)}\n${distance}`;
}

export function diffText(diff: ReportDiff): string {
  const { sentiment } = diff;
  return [
    heading(diff),
    '',
    table(metricRows(diff.metrics), ['metric', 'before', 'after', 'change']),
    ...(diff.shares.length > 0
      ? ['', table(shareRows(diff.shares), ['share', 'before', 'after', 'change'])]
      : []),
    '',
    `Topics added: ${diff.topicsAdded.join(', ') || 'none'}; dropped: ${diff.topicsDropped.join(', ') || 'none'}`,
    sentiment.shift === null
      ? 'Sentiment: not comparable'
      : `Sentiment: ${plain(sentiment.before ?? 0)} → ${plain(sentiment.after ?? 0)} (${signed(sentiment.shift, plain)})`,
    '',
    narrativeText(diff.narrative),
  ].join('\n');
}
