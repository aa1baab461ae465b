/** One owned report: narrative, change summary, analytics charts, navigation over time, export. */
import { useState } from 'react';
import type { ExportFormat } from '../../shared/rpc';
import { download } from '../download';
import { useRpc, useRpcMutation, useRpcQuery } from '../rpc/context';
import { useNavigate } from '../app/route';
import { ErrorLine, ErrorMessage, Loading } from '../components/States';
import { RichText, ValueView } from '../components/RichText';
import { Chart } from '../components/Charts';
import { copyText } from '../components/CopyButton';
import { chartable } from '../components/chart-data';
import { ReportCompare } from './ReportCompare';
import { ReportNotes } from './ReportNotes';
import { dateTime, day, humanize } from '../format';

function Sections(props: { value: Record<string, unknown> }) {
  return (
    <>
      {Object.entries(props.value).map(([key, value]) => (
        <section key={key} className="narrative-section">
          <h3>{humanize(key)}</h3>
          {typeof value === 'string' ? <RichText text={value} /> : <ValueView value={value} />}
        </section>
      ))}
    </>
  );
}

export function ReportScreen(props: { id: string; serviceUrl?: string | undefined }) {
  const navigate = useNavigate();
  const { mode } = useRpc();
  const [copied, setCopied] = useState(false);
  const report = useRpcQuery('report.get', {
    id: props.id,
    ...(props.serviceUrl ? { serviceUrl: props.serviceUrl } : {}),
  });
  const exporter = useRpcMutation('report.export', { onSuccess: download });
  if (report.isPending) return <Loading label="Opening the report…" />;
  if (report.isError) return <ErrorMessage error={report.error} onRetry={() => void report.refetch()} />;
  const { snapshot, serviceUrl, timeline, previous } = report.data;
  const position = timeline.findIndex((t) => t.id === snapshot.id);
  const older = position > 0 ? timeline[position - 1] : undefined;
  const newer = position >= 0 ? timeline[position + 1] : undefined;
  const change = snapshot.changeSummary;

  const exportAs = (format: ExportFormat) => exporter.mutate({ id: snapshot.id, serviceUrl, format });

  return (
    <article className="report" aria-labelledby="report-title">
      <div className="screen-head no-print">
        <button type="button" className="link" onClick={() => navigate({ screen: 'library' })}>
          ← Library
        </button>
        <div className="toolbar">
          <button
            type="button"
            disabled={!older}
            onClick={() => older && navigate({ screen: 'report', id: older.id, serviceUrl })}
          >
            ← Older
          </button>
          <select
            aria-label="Report over time"
            value={snapshot.id}
            onChange={(e) => navigate({ screen: 'report', id: e.target.value, serviceUrl })}
          >
            {timeline.map((t) => (
              <option key={t.id} value={t.id}>
                {dateTime(t.createdAt)} · {t.model}
              </option>
            ))}
          </select>
          <button
            type="button"
            disabled={!newer}
            onClick={() => newer && navigate({ screen: 'report', id: newer.id, serviceUrl })}
          >
            Newer →
          </button>
          <button type="button" onClick={() => exportAs('json')}>
            Export JSON
          </button>
          <button type="button" onClick={() => exportAs('md')}>
            Export Markdown
          </button>
          <button type="button" onClick={() => exportAs('pdf')}>
            Export PDF
          </button>
          <button type="button" onClick={() => window.print()}>
            Print
          </button>
          {mode === 'browser' ? (
            <button type="button" onClick={() => void copyText(window.location.href).then(setCopied)}>
              {copied ? 'Link copied' : 'Copy link'}
            </button>
          ) : null}
        </div>
      </div>
      <ErrorLine error={exporter.error} />
      <h1 id="report-title">Report of {dateTime(snapshot.createdAt)}</h1>
      <p className="muted">
        <bdi>{snapshot.model}</bdi> · {snapshot.meta.postCount ?? '?'} posts
        {snapshot.meta.dateRange
          ? ` · ${day(snapshot.meta.dateRange.from)} – ${day(snapshot.meta.dateRange.to)}`
          : ''}
        {` · ${position + 1} of ${timeline.length} owned`}
      </p>
      <section className="change" aria-label="Change summary">
        <h2>Change since the previous report</h2>
        {change === null || change === undefined ? (
          <p className="muted">This is the baseline: the first report of this handle.</p>
        ) : (
          <>
            {previous ? (
              <p className="small muted">
                Against the report of {day(previous.createdAt)} ({previous.meta.postCount ?? '?'} posts).
              </p>
            ) : (
              <p className="small muted">The previous report is not owned; this is the service's summary.</p>
            )}
            <ValueView value={change} />
          </>
        )}
      </section>
      <ReportCompare id={snapshot.id} serviceUrl={serviceUrl} timeline={timeline} />
      <ReportNotes key={`${serviceUrl} ${snapshot.id}`} id={snapshot.id} serviceUrl={serviceUrl} />
      <section aria-label="Narrative">
        <h2>Narrative</h2>
        <Sections value={snapshot.narrative} />
      </section>
      <section aria-label="Analytics">
        <h2>Analytics</h2>
        <div className="charts">
          {Object.entries(snapshot.analytics).map(([key, value]) => {
            const chart = chartable(value);
            return (
              <figure key={key} className="chart-box">
                <figcaption>{humanize(key)}</figcaption>
                {chart ? <Chart chart={chart} title={humanize(key)} /> : <ValueView value={value} />}
              </figure>
            );
          })}
        </div>
      </section>
    </article>
  );
}
