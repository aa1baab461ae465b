/**
 * Spend by day and by handle as recharts bar charts, for the Purchases screen only (recharts stays out of the
 * shelf's first paint). recharts' accessibility layer is kept: a chart takes focus and the arrow keys move
 * its tooltip from bar to bar, which reads the day or handle and the amount.
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SpendView } from '../../shared/rpc';
import { day, usd } from '../format';
import { tickDate } from '../components/Charts';
import { niceTicks } from '../components/nice-ticks';

/** A local day key (2026-11-23) as the locale writes it ("Nov 23"), and with the year for the tooltip. */
function dayLabel(key: string, withYear = false): string {
  // The key already names the person's local day: formatted as that calendar day, in UTC, it stays the day.
  return withYear ? day(`${key}T00:00:00Z`) : tickDate(Date.parse(`${key}T00:00:00Z`));
}

/** Axis ticks in dollars; the ticks themselves are round (niceTicks), so cents are enough. */
const axisUsd = (value: number) =>
  value === 0
    ? '$0'
    : `$${value.toLocaleString('en-US', { minimumFractionDigits: value < 10 ? 2 : 0, maximumFractionDigits: 2 })}`;

const tooltipUsd = (value: unknown) => usd(typeof value === 'number' ? value : Number(value));

export function SpendByDayChart(props: { days: SpendView['byDay'] }) {
  const total = props.days.reduce((sum, day) => sum + day.usd, 0);
  const ticks = niceTicks(Math.max(0, ...props.days.map((day) => day.usd)));
  return (
    <figure className="spend-chart" data-testid="spend-by-day">
      <figcaption>
        Spent by day, last {props.days.length} days ({usd(total)})
      </figcaption>
      <ResponsiveContainer width="100%" height={220}>
        <BarChart
          data={props.days}
          accessibilityLayer
          title="Spent by day"
          margin={{ top: 8, right: 24, bottom: 4, left: 4 }}
        >
          <CartesianGrid stroke="var(--line)" vertical={false} />
          <XAxis
            dataKey="day"
            tickFormatter={(day: string) => dayLabel(day)}
            tick={{ fill: 'var(--muted)', fontSize: 12 }}
            minTickGap={16}
          />
          <YAxis
            tickFormatter={axisUsd}
            tick={{ fill: 'var(--muted)', fontSize: 12 }}
            width={56}
            ticks={ticks}
            domain={[0, ticks.at(-1) ?? 0]}
            interval={0}
          />
          <Tooltip
            formatter={(value) => [tooltipUsd(value), 'Spent']}
            labelFormatter={(day) => dayLabel(String(day), true)}
            contentStyle={{
              background: 'var(--panel)',
              border: '1px solid var(--line)',
              color: 'var(--text)',
            }}
            cursor={{ fill: 'var(--row-current)' }}
          />
          <Bar dataKey="usd" name="Spent" fill="var(--chart)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

export function SpendByHandleChart(props: { handles: SpendView['byHandle'] }) {
  const rows = props.handles
    .filter((row) => row.totalUsd > 0)
    .map((row) => ({ ...row, label: `@${row.handle}` }));
  if (rows.length === 0) return null;
  // Room for the longest handle at the 12 px ticks, within reason.
  const labelWidth = Math.min(200, 12 + 8 * Math.max(...rows.map((row) => row.label.length)));
  const ticks = niceTicks(Math.max(...rows.map((row) => Math.max(row.totalUsd, row.monthUsd))));
  return (
    <figure className="spend-chart" data-testid="spend-by-handle">
      <figcaption>Spent by handle: this month and in all</figcaption>
      <ResponsiveContainer width="100%" height={Math.max(140, 44 * rows.length + 60)}>
        <BarChart
          data={rows}
          layout="vertical"
          accessibilityLayer
          title="Spent by handle"
          margin={{ top: 8, right: 24, bottom: 4, left: 4 }}
        >
          <CartesianGrid stroke="var(--line)" horizontal={false} />
          <XAxis
            type="number"
            tickFormatter={axisUsd}
            tick={{ fill: 'var(--muted)', fontSize: 12 }}
            ticks={ticks}
            domain={[0, ticks.at(-1) ?? 0]}
            interval={0}
          />
          <YAxis
            type="category"
            dataKey="label"
            width={labelWidth}
            tick={{ fill: 'var(--text)', fontSize: 12 }}
          />
          <Tooltip
            formatter={(value, name) => [tooltipUsd(value), name]}
            contentStyle={{
              background: 'var(--panel)',
              border: '1px solid var(--line)',
              color: 'var(--text)',
            }}
            cursor={{ fill: 'var(--row-current)' }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="monthUsd" name="This month" fill="var(--chart)" isAnimationActive={false} />
          <Bar dataKey="totalUsd" name="In all" fill="var(--muted)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
