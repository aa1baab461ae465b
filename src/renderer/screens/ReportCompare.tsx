/** "Compare with…" on a report: how the subject changed against another owned report of the same handle. */
import { useState } from 'react';
import type { TimelineEntry } from '../../shared/rpc';
import type { MetricChange, NarrativeChange, ReportDiff, ShareChange } from '../../shared/report-diff';
import { useRpcQuery } from '../rpc/context';
import { ErrorMessage, Loading } from '../components/States';
import { dateTime, humanize, metricLabel } from '../format';
import { appLocale } from '../locale';

const figures = new Intl.NumberFormat(appLocale, { maximumFractionDigits: 2 });
const number = (value: number) => figures.format(value);
const percent = (value: number) => `${Math.round(value * 1000) / 10}%`;
const points = (value: number) => `${Math.round(value * 1000) / 10} pts`;

function signed(value: number | null, format: (n: number) => string): string {
  if (value === null) return '—';
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${format(Math.abs(value))}`;
}

function Cell(props: { value: number | null; format: (n: number) => string }) {
  return <td className="num">{props.value === null ? '—' : props.format(props.value)}</td>;
}

function MetricRows(props: { metrics: MetricChange[] }) {
  return (
    <>
      {props.metrics.map((m) => (
        <tr key={`${m.kind}:${m.name}`}>
          <th scope="row">{metricLabel(m.name, m.kind)}</th>
          <Cell value={m.before} format={number} />
          <Cell value={m.after} format={number} />
          <td className="num">{signed(m.delta, number)}</td>
        </tr>
      ))}
    </>
  );
}

function ShareRows(props: { shares: ShareChange[] }) {
  return (
    <>
      {props.shares.map((s) => (
        <tr key={`${s.field}:${s.label}`}>
          <th scope="row">
            {humanize(s.field)}: <bdi>{s.label}</bdi>
          </th>
          <Cell value={s.before} format={s.percent ? percent : number} />
          <Cell value={s.after} format={s.percent ? percent : number} />
          <td className="num">{signed(s.delta, s.percent ? points : number)}</td>
        </tr>
      ))}
    </>
  );
}

function NarrativeDiff(props: { sections: NarrativeChange[] }) {
  const changed = props.sections.filter((section) => section.changed);
  if (changed.length === 0) return <p className="muted">The narrative did not change.</p>;
  return (
    <>
      {changed.map((section) => (
        <section key={section.section} className="narrative-section">
          <h4>{humanize(section.section)}</h4>
          <p className="word-diff">
            {section.parts.map((part, i) =>
              part.kind === 'added' ? (
                <ins key={i}>{part.text}</ins>
              ) : part.kind === 'removed' ? (
                <del key={i}>{part.text}</del>
              ) : (
                <span key={i}>{part.text}</span>
              ),
            )}
          </p>
        </section>
      ))}
    </>
  );
}

/** What lies between the two on the service, not only in the library: "consecutive" only when nothing does. */
function betweenText(diff: ReportDiff): string {
  if (diff.reportsBetween === null) return '';
  const parts = [
    diff.reportsBetween ? `${diff.reportsBetween} owned` : '',
    diff.notOwnedBetween ? `${diff.notOwnedBetween} not owned` : '',
  ].filter(Boolean);
  return parts.length === 0 ? ' · consecutive' : ` · ${parts.join(' and ')} between them`;
}

function DiffView(props: { diff: ReportDiff }) {
  const { diff } = props;
  const list = (topics: string[]) => (topics.length === 0 ? 'none' : topics.join(', '));
  return (
    <div className="report-diff">
      <p className="muted">
        {dateTime(diff.older.createdAt)} ({diff.older.model}) → {dateTime(diff.newer.createdAt)} (
        {diff.newer.model}){betweenText(diff)}
      </p>
      <table className="diff-table">
        <caption className="sr-only">Analytics before and after</caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          <MetricRows metrics={diff.metrics} />
          <ShareRows shares={diff.shares} />
        </tbody>
      </table>
      <p>
        Topics added: <strong>{list(diff.topicsAdded)}</strong> · dropped:{' '}
        <strong>{list(diff.topicsDropped)}</strong>
        {diff.sentiment.shift === null
          ? ''
          : ` · sentiment ${number(diff.sentiment.before ?? 0)} → ${number(diff.sentiment.after ?? 0)} (${signed(diff.sentiment.shift, number)})`}
      </p>
      <NarrativeDiff sections={diff.narrative} />
    </div>
  );
}

function DiffResult(props: { id: string; other: string; serviceUrl: string }) {
  const diff = useRpcQuery('report.diff', {
    a: { id: props.other, serviceUrl: props.serviceUrl },
    b: { id: props.id, serviceUrl: props.serviceUrl },
  });
  if (diff.isPending) return <Loading label="Comparing…" />;
  if (diff.isError) return <ErrorMessage error={diff.error} onRetry={() => void diff.refetch()} />;
  return <DiffView diff={diff.data} />;
}

export function ReportCompare(props: {
  id: string;
  serviceUrl: string;
  timeline: TimelineEntry[];
  /** A report chosen on the timeline: compared at once. */
  compare?: string | undefined;
}) {
  const others = props.timeline.filter((entry) => entry.id !== props.id);
  const position = props.timeline.findIndex((entry) => entry.id === props.id);
  const chosen = others.some((entry) => entry.id === props.compare) ? props.compare : undefined;
  const [other, setOther] = useState<string>(
    () => chosen ?? (position > 0 ? props.timeline[position - 1]?.id : others[0]?.id) ?? '',
  );
  const [open, setOpen] = useState(chosen !== undefined);
  if (others.length === 0) return null;
  return (
    <section className="compare no-print" aria-label="Compare with another report">
      <h2>Compare</h2>
      <div className="toolbar">
        <label>
          Compare with{' '}
          <select value={other} onChange={(e) => setOther(e.target.value)}>
            {others.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {dateTime(entry.createdAt)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" aria-expanded={open} onClick={() => setOpen((shown) => !shown)}>
          {open ? 'Hide changes' : 'Show changes'}
        </button>
      </div>
      {open && other ? <DiffResult id={props.id} other={other} serviceUrl={props.serviceUrl} /> : null}
    </section>
  );
}
