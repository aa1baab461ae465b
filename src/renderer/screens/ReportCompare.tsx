/** "Compare with…" on a report: how the subject changed against another owned report of the same handle. */
import { useState } from 'react';
import type { TimelineEntry } from '../../shared/rpc';
import type { MetricChange, NarrativeChange, ReportDiff, ShareChange } from '../../shared/report-diff';
import { useRpcQuery } from '../rpc/context';
import { ErrorMessage, Loading } from '../components/States';
import { dateTime, humanize, metricLabel } from '../format';
import { appLocale } from '../locale';
import { reportText as t } from '../text/report';

const figures = new Intl.NumberFormat(appLocale, { maximumFractionDigits: 2 });
const number = (value: number) => figures.format(value);
const percent = (value: number) => `${Math.round(value * 1000) / 10}%`;
const points = (value: number) => t('pts', { value: Math.round(value * 1000) / 10 });

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
  if (changed.length === 0) return <p className="muted">{t('narrativeSame')}</p>;
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
    diff.reportsBetween ? t('betweenOwned', { count: diff.reportsBetween }) : '',
    diff.notOwnedBetween ? t('betweenNotOwned', { count: diff.notOwnedBetween }) : '',
  ].filter(Boolean);
  return parts.length === 0 ? t('consecutive') : t('between', { parts: parts.join(t('and')) });
}

function DiffView(props: { diff: ReportDiff }) {
  const { diff } = props;
  const list = (topics: string[]) => (topics.length === 0 ? t('none') : topics.join(', '));
  return (
    <div className="report-diff">
      <p className="muted">
        {dateTime(diff.older.createdAt)} ({diff.older.model}) → {dateTime(diff.newer.createdAt)} (
        {diff.newer.model}){betweenText(diff)}
      </p>
      <table className="diff-table">
        <caption className="sr-only">{t('diffCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('figure')}</th>
            <th scope="col">{t('before')}</th>
            <th scope="col">{t('after')}</th>
            <th scope="col">{t('change')}</th>
          </tr>
        </thead>
        <tbody>
          <MetricRows metrics={diff.metrics} />
          <ShareRows shares={diff.shares} />
        </tbody>
      </table>
      <p>
        {t('topicsAdded')}
        <strong>{list(diff.topicsAdded)}</strong>
        {t('topicsDropped')} <strong>{list(diff.topicsDropped)}</strong>
        {diff.sentiment.shift === null
          ? ''
          : t('sentiment', {
              before: number(diff.sentiment.before ?? 0),
              after: number(diff.sentiment.after ?? 0),
              shift: signed(diff.sentiment.shift, number),
            })}
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
  if (diff.isPending) return <Loading label={t('comparing')} />;
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
    <section className="compare no-print" aria-label={t('compareLabel')}>
      <h2>{t('compare')}</h2>
      <div className="toolbar">
        <label>
          {t('compareWith')}{' '}
          <select value={other} onChange={(e) => setOther(e.target.value)}>
            {others.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {dateTime(entry.createdAt)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" aria-expanded={open} onClick={() => setOpen((shown) => !shown)}>
          {open ? t('hideChanges') : t('showChanges')}
        </button>
      </div>
      {open && other ? <DiffResult id={props.id} other={other} serviceUrl={props.serviceUrl} /> : null}
    </section>
  );
}
