/**
 * A handle's reports on a time axis: each report a point at its date (height: posts analysed), the one open
 * marked, and those on the menu you do not own hollow. Click a point, or move to it with the arrow keys and
 * press Enter, to open it (a report not owned opens the menu to buy it); "Compare two" picks two owned
 * points the same way and opens the compare view on them.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  CartesianGrid,
  Line,
  LineChart,
  Tooltip,
  XAxis,
  YAxis,
  useActiveTooltipDataPoints,
  type TooltipContentProps,
} from 'recharts';
import type { IntelReportSnapshot } from '../../shared/wire';
import type { NotOwnedReport, TimelineEntry } from '../../shared/rpc';
import { isoTime, readableDate } from '../../shared/analytics-shape';
import { day } from '../format';
import { ChartTooltip, tickDate } from '../components/Charts';
import { reportText as t } from '../text/report';

interface Point {
  id: string;
  x: number;
  y: number;
  createdAt: string;
  model: string;
  postCount: number | null;
  /** The owned report, or null for one on the menu not owned. */
  entry: TimelineEntry | null;
  /** The report its change summary is against, when that one is owned too. */
  follows: TimelineEntry | null;
}

/**
 * "Report 3 of 6 (you own 4)": the place among every report of the handle its last menu seen lists, not
 * only the owned ones; without a menu seen, among the owned ones, said as such.
 */
export function placeText(
  snapshot: IntelReportSnapshot,
  timeline: TimelineEntry[],
  notOwned: NotOwnedReport[],
  menuCount: number | null,
): string {
  const owned = timeline.findIndex((entry) => entry.id === snapshot.id);
  if (menuCount === null) return t('placeOwned', { place: owned + 1, count: timeline.length });
  const all = [...timeline, ...notOwned].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  );
  const place = all.findIndex((entry) => entry.id === snapshot.id) + 1;
  return notOwned.length === 0
    ? t('place', { place, count: all.length })
    : t('placeNotOwned', { place, count: all.length, owned: timeline.length });
}

const DAY = 86_400_000;

/** Ticks on the reports' days, one per day shown, at most about `count`. */
function dayTicks(points: Point[], count: number): number[] {
  const days = [...new Set(points.map((p) => Math.floor(p.x / DAY) * DAY))];
  if (days.length <= count) return days;
  const step = (days.length - 1) / (count - 1);
  return [...new Set(Array.from({ length: count }, (_, i) => days[Math.round(i * step)]!))];
}

function chainLine(point: Point): string {
  const { entry, follows } = point;
  if (entry === null) return t('chainNotOwned');
  if (entry.previousReportId === null) return t('chainBaseline');
  const change = entry.changeHeadline ? t('chainHeadline', { headline: entry.changeHeadline }) : '';
  if (follows) return t('chainSince', { day: day(follows.createdAt), change });
  return t('chainMissing', { change });
}

/** Tells the timeline which point the tooltip is on, so Enter opens what the tooltip shows. */
function ActiveProbe(props: { onChange: (id: string | null) => void }) {
  const active = useActiveTooltipDataPoints<Point>();
  const id = active?.[0]?.id ?? null;
  const { onChange } = props;
  useEffect(() => onChange(id), [id, onChange]);
  return null;
}

function Dot(props: {
  cx?: number | undefined;
  cy?: number | undefined;
  payload: Point;
  current: string;
  chosen: string[];
  onChoose: (id: string) => void;
}) {
  const { cx, cy, payload } = props;
  if (cx === undefined || cy === undefined) return null;
  const current = payload.id === props.current;
  const chosen = props.chosen.includes(payload.id);
  const missing = payload.entry === null;
  // Each point takes its own clicks: the chart's tooltip index can lag a pointer that has just moved.
  return (
    <g
      className={`timeline-dot${current ? ' current' : ''}${chosen ? ' chosen' : ''}${missing ? ' not-owned' : ''}`}
      data-testid={missing ? 'timeline-not-owned' : 'timeline-owned'}
      onClick={() => props.onChoose(payload.id)}
    >
      <circle cx={cx} cy={cy} r={12} className="timeline-hit" />
      {current || chosen ? <circle cx={cx} cy={cy} r={9} className="timeline-ring" /> : null}
      <circle cx={cx} cy={cy} r={current ? 6 : 4.5} />
    </g>
  );
}

export function ReportTimeline(props: {
  timeline: TimelineEntry[];
  notOwned: NotOwnedReport[];
  currentId: string;
  username: string;
  onOpen: (id: string) => void;
  onOpenMenu: () => void;
  onCompare: (older: string, newer: string) => void;
}) {
  const { timeline, currentId } = props;
  const [picking, setPicking] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const active = useRef<string | null>(null);
  const onActive = useCallback((id: string | null) => {
    active.current = id;
  }, []);
  const byId = new Map(timeline.map((entry) => [entry.id, entry]));
  // A report whose date is not a date has no place on the axis; the Older/Newer buttons still reach it.
  const owned: Point[] = timeline.flatMap((entry) => {
    const x = isoTime(entry.createdAt);
    if (x === null) return [];
    const follows = entry.previousReportId ? (byId.get(entry.previousReportId) ?? null) : null;
    return [{ ...entry, x, y: entry.postCount ?? 0, entry, follows }];
  });
  const missing: Point[] = props.notOwned.flatMap((report) => {
    const x = isoTime(report.createdAt);
    return x === null ? [] : [{ ...report, x, y: report.postCount, entry: null, follows: null }];
  });
  const points = [...owned, ...missing].sort((a, b) => a.x - b.x || a.id.localeCompare(b.id));
  const missingIds = new Set(missing.map((p) => p.id));
  const xs = points.map((p) => p.x);
  const pad = Math.max((Math.max(...xs) - Math.min(...xs)) * 0.04, DAY / 2);

  const choose = (id: string) => {
    if (missingIds.has(id)) {
      // Not owned: nothing to open or compare here; its menu is where it can be bought.
      if (!picking) props.onOpenMenu();
      return;
    }
    if (!picking) {
      if (id !== currentId) props.onOpen(id);
      return;
    }
    const next = chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id];
    if (next.length < 2) return setChosen(next);
    const [a, b] = next.map((c) => byId.get(c)!) as [TimelineEntry, TimelineEntry];
    const [older, newer] = a.createdAt <= b.createdAt ? [a, b] : [b, a];
    setPicking(false);
    setChosen([]);
    props.onCompare(older.id, newer.id);
  };
  const chosenDays = chosen.map((id) => day(byId.get(id)?.createdAt ?? ''));

  return (
    <section className="timeline no-print" aria-label={t('timeline')}>
      <div className="timeline-head">
        <h2>{t('timeline')}</h2>
        {timeline.length > 1 ? (
          <button
            type="button"
            aria-pressed={picking}
            onClick={() => {
              setPicking((on) => !on);
              setChosen([]);
            }}
          >
            {picking ? t('cancelCompare') : t('compareTwo')}
          </button>
        ) : null}
        <p className="small muted" aria-live="polite">
          {picking
            ? t('choosingTwo', {
                chosen: chosenDays.length ? t('chosenDays', { days: chosenDays.join(', ') }) : '',
              })
            : t('timelineHelp', {
                hollow: missing.length ? t('timelineHollow') : '',
                menu: missing.length ? t('timelineMenu') : '',
              })}
        </p>
      </div>
      {points.length === 0 ? null : (
        <div
          className="chart-box timeline-chart"
          onKeyDown={(event) => {
            if (event.key !== 'Enter' || !active.current) return;
            event.preventDefault();
            choose(active.current);
          }}
        >
          <LineChart
            data={points}
            responsive
            style={{ width: '100%', height: 170 }}
            margin={{ top: 14, right: 20, bottom: 4, left: 0 }}
            aria-label={t('timelineChart', {
              handle: props.username,
              count: points.length,
              owned: owned.length,
            })}
          >
            <CartesianGrid vertical={false} strokeDasharray="2 3" />
            <XAxis
              dataKey="x"
              type="number"
              scale="time"
              domain={[Math.min(...xs) - pad, Math.max(...xs) + pad]}
              ticks={dayTicks(points, 6)}
              tick={{ fontSize: 12 }}
              tickFormatter={tickDate}
            />
            <YAxis width={48} tick={{ fontSize: 12 }} allowDecimals={false} />
            <Tooltip
              isAnimationActive={false}
              content={(tip: TooltipContentProps) => {
                const point = tip.payload[0]?.payload as Point | undefined;
                return (
                  <ChartTooltip
                    active={tip.active}
                    lines={
                      point
                        ? [
                            <strong key="d">
                              {readableDate(point.createdAt)}
                              {point.id === currentId ? t('openMark') : ''}
                            </strong>,
                            t('pointPosts', { posts: point.postCount ?? '?', model: point.model }),
                            chainLine(point),
                          ]
                        : null
                    }
                  />
                );
              }}
            />
            <Line
              dataKey="y"
              type="linear"
              isAnimationActive={false}
              className="timeline-line"
              dot={(dot: { cx?: number; cy?: number; payload?: unknown }) => {
                const point = dot.payload as Point;
                return (
                  <Dot
                    key={point.id}
                    cx={dot.cx}
                    cy={dot.cy}
                    payload={point}
                    current={currentId}
                    chosen={chosen}
                    onChoose={choose}
                  />
                );
              }}
              activeDot={{ r: 8 }}
            />
            <ActiveProbe onChange={onActive} />
          </LineChart>
        </div>
      )}
    </section>
  );
}
