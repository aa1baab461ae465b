/**
 * The Report screen's analytics as recharts charts: bars labelled with their values (shares as percentages),
 * series over a date axis, a tooltip on every bar and point. Each chart is one tab stop named for what it
 * shows; recharts' accessibility layer moves the tooltip with the arrow keys. Colours and type sizes come
 * from styles/charts-forms.css (SVG presentation attributes cannot read the theme's CSS variables).
 * Only the lazily loaded Report screen imports this, so recharts stays out of the first paint.
 */
import { appLocale } from '../locale';
import type { KeyboardEvent, ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  LabelList,
  Line,
  LineChart,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { TooltipContentProps } from 'recharts';
import { figureText, seriesDate, type AnalyticsFigure } from '../../shared/analytics-shape';
import { humanize } from '../format';

type Drawn = Exclude<AnalyticsFigure, { kind: 'other' }>;

const TICK = { fontSize: 12 };
const LABEL_CHARS = 22;

/** "Nov 6" or "6 Nov" as the person's locale writes it: a date tick (UTC, as the reports' dates are). */
export function tickDate(time: number): string {
  return new Date(time).toLocaleDateString(appLocale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

/** About `count` ticks on data points, first and last included, so a date axis never repeats a day. */
export function spreadTicks(xs: number[], count: number): number[] {
  if (xs.length <= count) return xs;
  const step = (xs.length - 1) / (count - 1);
  return [...new Set(Array.from({ length: count }, (_, i) => xs[Math.round(i * step)]!))];
}

/** A tooltip in the theme's colours that a screen reader announces as the arrow keys move it. */
export function ChartTooltip(props: { active: boolean; lines: ReactNode[] | null }): ReactNode {
  if (!props.active || !props.lines) return null;
  return (
    <div className="chart-tooltip" role="status" aria-live="polite">
      {props.lines.map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </div>
  );
}

function datum<T>(props: TooltipContentProps): T | null {
  const first = props.payload[0];
  return first ? (first.payload as T) : null;
}

/**
 * Recharts moves the tooltip of a chart laid out top to bottom backwards (ArrowRight goes up). Its bars read
 * as a list, so Down and Right go to the next bar and Up and Left to the one before, and the page does not
 * scroll under the focused chart.
 */
const LIST_KEYS: Record<string, string> = {
  ArrowDown: 'ArrowLeft',
  ArrowRight: 'ArrowLeft',
  ArrowUp: 'ArrowRight',
  ArrowLeft: 'ArrowRight',
};

function listKeys(event: KeyboardEvent<HTMLDivElement>): void {
  const key = LIST_KEYS[event.key];
  if (!key || !event.nativeEvent.isTrusted) return;
  event.preventDefault();
  event.stopPropagation();
  event.target.dispatchEvent(new globalThis.KeyboardEvent('keydown', { key, bubbles: true }));
}

function BarFigure(props: { figure: Extract<AnalyticsFigure, { kind: 'bars' }>; title: string }) {
  const { figure } = props;
  const text = (value: number) => figureText(value, figure.percent);
  const label = (raw: string) => (figure.origin === 'record' ? humanize(raw) : raw);
  const data = figure.points.map((p) => ({ label: label(p.label), value: p.value }));
  const longest = Math.max(...data.map((d) => Math.min(d.label.length, LABEL_CHARS)));
  const labelWidth = Math.min(180, 20 + longest * 7.5);
  return (
    <div onKeyDownCapture={listKeys}>
      <BarChart
        layout="vertical"
        data={data}
        responsive
        style={{ width: '100%', height: data.length * 30 + 12 }}
        margin={{ top: 4, right: 56, bottom: 4, left: 4 }}
        aria-label={`${props.title}, a bar chart: up and down arrow keys read each bar`}
      >
        <XAxis type="number" hide domain={[(min: number) => Math.min(0, min), 'auto']} />
        <YAxis
          type="category"
          dataKey="label"
          width={labelWidth}
          tick={TICK}
          tickLine={false}
          interval={0}
          tickFormatter={(value: string) =>
            value.length > LABEL_CHARS ? `${value.slice(0, LABEL_CHARS - 1)}…` : value
          }
        />
        <Tooltip
          isAnimationActive={false}
          content={(tip: TooltipContentProps) => {
            const row = datum<{ label: string; value: number }>(tip);
            return (
              <ChartTooltip
                active={tip.active}
                lines={
                  row ? [<bdi key="l">{row.label}</bdi>, <strong key="v">{text(row.value)}</strong>] : null
                }
              />
            );
          }}
        />
        <Bar dataKey="value" isAnimationActive={false} barSize={16} radius={2}>
          <LabelList
            dataKey="value"
            position="right"
            className="chart-value"
            formatter={(value: unknown) => (typeof value === 'number' ? text(value) : '')}
          />
        </Bar>
      </BarChart>
    </div>
  );
}

function SeriesFigure(props: { figure: Extract<AnalyticsFigure, { kind: 'series' }>; title: string }) {
  const { figure } = props;
  const yName = humanize(figure.yLabel).toLowerCase();
  const xText = (x: number) => (figure.dates ? seriesDate(x) : `${humanize(figure.xLabel)} ${x}`);
  const xs = figure.points.map((p) => p.x);
  return (
    <LineChart
      data={figure.points}
      responsive
      style={{ width: '100%', height: 190 }}
      margin={{ top: 8, right: 16, bottom: 4, left: 0 }}
      aria-label={`${props.title}, ${yName} by ${figure.dates ? 'day' : humanize(figure.xLabel).toLowerCase()}: arrow keys read each point`}
    >
      <CartesianGrid vertical={false} strokeDasharray="2 3" />
      <XAxis
        dataKey="x"
        type="number"
        scale={figure.dates ? 'time' : 'auto'}
        domain={['dataMin', 'dataMax']}
        ticks={spreadTicks(xs, 4)}
        tick={TICK}
        tickFormatter={(x: number) => (figure.dates ? tickDate(x) : String(x))}
        padding={{ left: 12, right: 12 }}
      />
      <YAxis
        width={48}
        tick={TICK}
        tickFormatter={(y: number) => figureText(y, false)}
        domain={['auto', 'auto']}
      />
      {/* Zero is always on the axis, and the ticks stay round numbers. */}
      <ReferenceLine y={0} ifOverflow="extendDomain" className="chart-zero" />
      <Tooltip
        isAnimationActive={false}
        content={(tip: TooltipContentProps) => {
          const point = datum<{ x: number; y: number }>(tip);
          return (
            <ChartTooltip
              active={tip.active}
              lines={
                point
                  ? [xText(point.x), <strong key="v">{`${figureText(point.y, false)} ${yName}`}</strong>]
                  : null
              }
            />
          );
        }}
      />
      <Line dataKey="y" type="linear" isAnimationActive={false} strokeWidth={2} dot={{ r: 3 }} />
    </LineChart>
  );
}

export function Chart(props: { figure: Drawn; title: string }) {
  const { figure } = props;
  if (figure.kind === 'bars') return <BarFigure figure={figure} title={props.title} />;
  if (figure.kind === 'series') return <SeriesFigure figure={figure} title={props.title} />;
  return <p className="stat">{figureText(figure.value, false)}</p>;
}
