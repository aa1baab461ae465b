/**
 * Spend by day and by handle as recharts bar charts, for the Purchases screen only (recharts stays out of the
 * shelf's first paint). recharts' accessibility layer is kept: a chart takes focus and the arrow keys move
 * its tooltip from bar to bar, which reads the day or handle and the amount.
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SpendView } from '../../shared/rpc';
import { day, number, units, usd } from '../format';
import { spendText as t } from '../text/spend';
import { tickDate } from '../components/Charts';
import { niceTicks } from '../components/nice-ticks';

/** A local day key (2026-11-23) as the locale writes it ("Nov 23"), and with the year for the tooltip. */
function dayLabel(key: string, withYear = false): string {
  // The key already names the person's local day: formatted as that calendar day, in UTC, it stays the day.
  return withYear ? day(`${key}T00:00:00Z`) : tickDate(Date.parse(`${key}T00:00:00Z`));
}

/** Axis ticks in dollars; the ticks themselves are round (niceTicks), so cents are enough. */
const axisUsd = (value: number) =>
  number(value, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: value !== 0 && value < 10 ? 2 : 0,
    maximumFractionDigits: 2,
  });

/**
 * A bar's length in dollars: the only place an amount becomes a float, to be drawn; every figure a person
 * reads (caption, tooltip) is formatted from the base units themselves.
 */
const barLength = (amount: string) => Number(units(amount));

/** The exact amount behind a bar, from its row's base units (the `units` key of what is drawn). */
function tooltipUsd(row: unknown, unitsKey: string): string {
  const amount = typeof row === 'object' && row !== null ? (row as Record<string, unknown>)[unitsKey] : null;
  return typeof amount === 'string' ? usd(amount) : '';
}

export function SpendByDayChart(props: { days: SpendView['byDay'] }) {
  const total = props.days.reduce((sum, day) => sum + BigInt(day.units), 0n);
  const days = props.days.map((row) => ({ ...row, bar: barLength(row.units) }));
  const ticks = niceTicks(Math.max(0, ...days.map((row) => row.bar)));
  return (
    <figure className="spend-chart" data-testid="spend-by-day">
      <figcaption>{t('byDayCaption', { days: number(props.days.length), amount: usd(total) })}</figcaption>
      <ResponsiveContainer width="100%" height={220}>
        <BarChart
          data={days}
          accessibilityLayer
          title={t('byDayTitle')}
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
            formatter={(_value, _name, item) => [tooltipUsd(item.payload, 'units'), t('spent')]}
            labelFormatter={(day) => dayLabel(String(day), true)}
            contentStyle={{
              background: 'var(--panel)',
              border: '1px solid var(--line)',
              color: 'var(--text)',
            }}
            cursor={{ fill: 'var(--row-current)' }}
          />
          <Bar dataKey="bar" name={t('spent')} fill="var(--chart)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

export function SpendByHandleChart(props: { handles: SpendView['byHandle'] }) {
  const rows = props.handles
    .filter((row) => BigInt(row.totalUnits) > 0n)
    .map((row) => ({
      ...row,
      label: `@${row.handle}`,
      monthBar: barLength(row.monthUnits),
      totalBar: barLength(row.totalUnits),
    }));
  if (rows.length === 0) return null;
  // Room for the longest handle at the 12 px ticks, within reason.
  const labelWidth = Math.min(200, 12 + 8 * Math.max(...rows.map((row) => row.label.length)));
  const ticks = niceTicks(Math.max(...rows.map((row) => Math.max(row.totalBar, row.monthBar))));
  return (
    <figure className="spend-chart" data-testid="spend-by-handle">
      <figcaption>{t('byHandleCaption')}</figcaption>
      <ResponsiveContainer width="100%" height={Math.max(140, 44 * rows.length + 60)}>
        <BarChart
          data={rows}
          layout="vertical"
          accessibilityLayer
          title={t('byHandleTitle')}
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
            formatter={(_value, name, item) => [
              tooltipUsd(item.payload, item.dataKey === 'monthBar' ? 'monthUnits' : 'totalUnits'),
              name,
            ]}
            contentStyle={{
              background: 'var(--panel)',
              border: '1px solid var(--line)',
              color: 'var(--text)',
            }}
            cursor={{ fill: 'var(--row-current)' }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="monthBar" name={t('thisMonth')} fill="var(--chart)" isAnimationActive={false} />
          <Bar dataKey="totalBar" name={t('inAll')} fill="var(--muted)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
