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
import { reportText as t } from '../text/report';

/** Owned and not-owned reports of the handle, oldest first, as the timeline shows them. */
function overTime(
  timeline: TimelineEntry[],
  notOwned: NotOwnedReport[],
): { id: string; createdAt: string; model: string; owned: boolean }[] {
  return [
    ...timeline.map((e) => ({ id: e.id, createdAt: e.createdAt, model: e.model, owned: true })),
    ...notOwned.map((e) => ({ id: e.id, createdAt: e.createdAt, model: e.model, owned: false })),
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
  if (report.isPending) return <Loading label={t('opening')} />;
  if (report.isError) return <ErrorMessage error={report.error} onRetry={() => void report.refetch()} />;
  const { snapshot, serviceUrl, timeline, notOwned, menuCount, previous, username, displayName } =
    report.data;
  const position = timeline.findIndex((entry) => entry.id === snapshot.id);
  const older = position > 0 ? timeline[position - 1] : undefined;
  const newer = position >= 0 ? timeline[position + 1] : undefined;
  const change = snapshot.changeSummary;

  const exportAs = (format: ExportFormat) => exporter.mutate({ id: snapshot.id, serviceUrl, format });

  return (
    <article className="report" aria-labelledby="report-title">
      <div className="screen-head no-print">
        <button type="button" className="link" onClick={() => navigate({ screen: 'library' })}>
          {t('backToLibrary')}
        </button>
        {/* Two groups that wrap whole: at 1280 px one row, narrower the export row goes under the other. */}
        <div className="toolbar report-toolbar">
          <div className="toolbar-group">
            <button
              type="button"
              disabled={!older}
              onClick={() => older && navigate({ screen: 'report', id: older.id, serviceUrl })}
            >
              {t('older')}
            </button>
            <select
              aria-label={t('overTime')}
              value={snapshot.id}
              onChange={(e) => navigate({ screen: 'report', id: e.target.value, serviceUrl })}
            >
              {/* Every report the timeline shows: those not owned are listed so the two agree, and cannot
                be chosen since there is nothing to read; the timeline opens the menu to buy them. */}
              {overTime(timeline, notOwned).map((entry) => (
                <option key={entry.id} value={entry.id} disabled={!entry.owned}>
                  {dateTime(entry.createdAt)} · {entry.model}
                  {entry.owned ? '' : t('notOwnedOption')}
                </option>
              ))}
            </select>
            <button
              type="button"
              disabled={!newer}
              onClick={() => newer && navigate({ screen: 'report', id: newer.id, serviceUrl })}
            >
              {t('newer')}
            </button>
          </div>
          <div className="toolbar-group" role="group" aria-label={t('exportGroup')}>
            <span className="muted small" aria-hidden="true">
              {t('export')}
            </span>
            <button type="button" aria-label={t('exportJson')} onClick={() => exportAs('json')}>
              {t('json')}
            </button>
            <button type="button" aria-label={t('exportMarkdown')} onClick={() => exportAs('md')}>
              {t('markdown')}
            </button>
            <button type="button" aria-label={t('exportPdf')} onClick={() => exportAs('pdf')}>
              {t('pdf')}
            </button>
            <button type="button" onClick={() => window.print()}>
              {t('print')}
            </button>
            {mode === 'browser' ? (
              <button type="button" onClick={() => void copyText(window.location.href).then(setCopied)}>
                {copied ? t('linkCopied') : t('copyLink')}
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
          title={t('handleReports')}
          onClick={() => navigate({ screen: 'library', handle: username })}
        >
          {displayName ? <bdi className="report-name">{displayName}</bdi> : null}{' '}
          <bdi className={displayName ? 'muted' : 'report-name'}>@{username}</bdi>
        </button>
        {report.data.boughtBy ? ' ' : null}
        <TeamMark boughtBy={report.data.boughtBy} />
      </p>
      <h1 id="report-title">{t('heading', { date: dateTime(snapshot.createdAt) })}</h1>
      <p className="report-place" data-testid="report-place">
        {placeText(snapshot, timeline, notOwned, menuCount)}
      </p>
      <p className="muted">
        <bdi>{snapshot.model}</bdi>
        {t('posts', { posts: snapshot.meta.postCount ?? '?' })}
        {snapshot.meta.dateRange
          ? t('range', { from: day(snapshot.meta.dateRange.from), to: day(snapshot.meta.dateRange.to) })
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
      <section className="change" aria-label={t('changeLabel')}>
        <h2>{t('changeHeading')}</h2>
        {change === null || change === undefined ? (
          <p className="muted">{t('baseline')}</p>
        ) : (
          <>
            {previous ? (
              <p className="small muted">
                {t('against', { day: day(previous.createdAt), posts: previous.meta.postCount ?? '?' })}
              </p>
            ) : (
              <p className="small muted">{t('previousNotOwned')}</p>
            )}
            <ValueView value={change} />
          </>
        )}
      </section>
      <ReportCompare id={snapshot.id} serviceUrl={serviceUrl} timeline={timeline} compare={props.compare} />
      <ReportNotes key={`${serviceUrl} ${snapshot.id}`} id={snapshot.id} serviceUrl={serviceUrl} />
      <section aria-label={t('narrative')}>
        <h2>{t('narrative')}</h2>
        <Sections value={snapshot.narrative} />
      </section>
      <section aria-label={t('analytics')}>
        <h2>{t('analytics')}</h2>
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
