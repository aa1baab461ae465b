/** One owned report: narrative, change summary, analytics charts, navigation over time, export. */
import { useState } from 'react';
import type { ExportFormat, NotOwnedReport, TimelineEntry } from '../../shared/rpc';
import { download } from '../download';
import { useRpc, useRpcMutation, useRpcQuery } from '../rpc/context';
import { useNavigate } from '../hooks/route';
import { ErrorLine, ErrorMessage, Loading } from '../components/States';
import { TeamMark } from '../components/TeamMark';
import { RichText, ValueView } from '../components/RichText';
import { Chart } from '../components/Charts';
import { copyText } from '../components/CopyButton';
import { analyticsFigures, type AnalyticsFigure } from '../../shared/analytics-shape';
import { ReportCompare } from './ReportCompare';
import { ReportTimeline, placeText } from './ReportTimeline';
import { ReportNotes } from './ReportNotes';
import { CiteReport } from './CiteReport';
import { dateTime, day, humanize } from '../format';

/** Owned and not-owned reports of the handle, oldest first, as the timeline shows them. */
function overTime(
  timeline: TimelineEntry[],
  notOwned: NotOwnedReport[],
): { id: string; createdAt: string; model: string; owned: boolean }[] {
  return [
    ...timeline.map((t) => ({ id: t.id, createdAt: t.createdAt, model: t.model, owned: true })),
    ...notOwned.map((t) => ({ id: t.id, createdAt: t.createdAt, model: t.model, owned: false })),
  ].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

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

/** A figure with something to draw: bars and series with no usable point are shown as their values. */
function drawable(figure: AnalyticsFigure): figure is Exclude<AnalyticsFigure, { kind: 'other' }> {
  if (figure.kind === 'other') return false;
  return figure.kind === 'value' || figure.points.length > 0;
}

export function ReportScreen(props: {
  id: string;
  serviceUrl?: string | undefined;
  compare?: string | undefined;
}) {
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
  const { snapshot, serviceUrl, timeline, notOwned, menuCount, previous, username, displayName } =
    report.data;
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
        {/* Two groups that wrap whole: at 1280 px one row, narrower the export row goes under the other. */}
        <div className="toolbar report-toolbar">
          <div className="toolbar-group">
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
              {/* Every report the timeline shows: those not owned are listed so the two agree, and cannot
                be chosen since there is nothing to read; the timeline opens the menu to buy them. */}
              {overTime(timeline, notOwned).map((t) => (
                <option key={t.id} value={t.id} disabled={!t.owned}>
                  {dateTime(t.createdAt)} · {t.model}
                  {t.owned ? '' : ' · not owned'}
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
          </div>
          <div className="toolbar-group" role="group" aria-label="Export and share">
            <span className="muted small" aria-hidden="true">
              Export
            </span>
            <button type="button" aria-label="Export JSON" onClick={() => exportAs('json')}>
              JSON
            </button>
            <button type="button" aria-label="Export Markdown" onClick={() => exportAs('md')}>
              Markdown
            </button>
            <button type="button" aria-label="Export PDF" onClick={() => exportAs('pdf')}>
              PDF
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
          <CiteReport id={snapshot.id} serviceUrl={serviceUrl} />
        </div>
      </div>
      <ErrorLine error={exporter.error} />
      <p className="report-handle">
        <button
          type="button"
          className="link"
          title="This handle's reports in your library"
          onClick={() => navigate({ screen: 'library', handle: username })}
        >
          {displayName ? <bdi className="report-name">{displayName}</bdi> : null}{' '}
          <bdi className={displayName ? 'muted' : 'report-name'}>@{username}</bdi>
        </button>
        {report.data.boughtBy ? ' ' : null}
        <TeamMark boughtBy={report.data.boughtBy} />
      </p>
      <h1 id="report-title">Report of {dateTime(snapshot.createdAt)}</h1>
      <p className="report-place" data-testid="report-place">
        {placeText(snapshot, timeline, notOwned, menuCount)}
      </p>
      <p className="muted">
        <bdi>{snapshot.model}</bdi> · {snapshot.meta.postCount ?? '?'} posts
        {snapshot.meta.dateRange
          ? ` · ${day(snapshot.meta.dateRange.from)} – ${day(snapshot.meta.dateRange.to)}`
          : ''}
      </p>
      <ReportTimeline
        timeline={timeline}
        notOwned={notOwned}
        currentId={snapshot.id}
        username={username}
        onOpen={(id) => navigate({ screen: 'report', id, serviceUrl })}
        onOpenMenu={() => navigate({ screen: 'menu', handle: username })}
        onCompare={(older, newer) =>
          navigate({
            screen: 'report',
            ...(older === snapshot.id ? { id: older, compare: newer } : { id: newer, compare: older }),
            serviceUrl,
          })
        }
      />
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
      <ReportCompare id={snapshot.id} serviceUrl={serviceUrl} timeline={timeline} compare={props.compare} />
      <ReportNotes key={`${serviceUrl} ${snapshot.id}`} id={snapshot.id} serviceUrl={serviceUrl} />
      <section aria-label="Narrative">
        <h2>Narrative</h2>
        <Sections value={snapshot.narrative} />
      </section>
      <section aria-label="Analytics">
        <h2>Analytics</h2>
        <div className="charts">
          {analyticsFigures(snapshot.analytics).map((figure) => (
            <figure key={figure.name} className="chart-box">
              <figcaption>{humanize(figure.name)}</figcaption>
              {drawable(figure) ? (
                <Chart figure={figure} title={humanize(figure.name)} />
              ) : (
                <ValueView value={snapshot.analytics[figure.name]} />
              )}
            </figure>
          ))}
        </div>
      </section>
    </article>
  );
}
