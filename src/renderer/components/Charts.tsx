/**
 * Hand-drawn SVG charts: nothing remote, readable in print, drawn at the box's real pixel width so labels stay
 * 12 px whatever the column. Each chart is one tab stop: arrow keys (or the pointer) pick a bar or point, whose
 * value is read out under the chart; every bar and point also has its value as a tooltip.
 */
import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { formatValue, shortDate, type Chartable } from './chart-data';
import { humanize } from '../format';

/** The element's width, following resizes; 360 before the first layout. */
function useWidth(): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(360);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(240, Math.floor(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

function Frame(props: {
  title: string;
  count: number;
  active: number | null;
  setActive: (index: number | null) => void;
  readout: string | null;
  children: (width: number) => ReactNode;
}) {
  const [ref, width] = useWidth();
  const { count, active, setActive } = props;
  const moves: Record<string, number> = {
    ArrowRight: (active ?? -1) + 1,
    ArrowDown: (active ?? -1) + 1,
    ArrowLeft: (active ?? count) - 1,
    ArrowUp: (active ?? count) - 1,
    Home: 0,
    End: count - 1,
  };
  return (
    <div
      ref={ref}
      className="chart-frame"
      role="group"
      aria-label={`${props.title}: arrow keys read each value`}
      tabIndex={0}
      onFocus={() => setActive(active ?? 0)}
      onBlur={() => setActive(null)}
      onKeyDown={(event) => {
        const next = moves[event.key];
        if (next === undefined) return;
        event.preventDefault();
        setActive(Math.max(0, Math.min(count - 1, next)));
      }}
    >
      {props.children(width)}
      <p className="chart-readout" aria-live="polite">
        {props.readout ?? '\u00a0'}
      </p>
    </div>
  );
}

export function BarChart(props: {
  points: { label: string; value: number }[];
  percent: boolean;
  title: string;
}) {
  const [active, setActive] = useState<number | null>(null);
  const max = Math.max(...props.points.map((p) => Math.abs(p.value)), 1e-9);
  const rowHeight = 26;
  const text = (i: number) => {
    const point = props.points[i];
    return point ? `${point.label}: ${formatValue(point.value, props.percent)}` : null;
  };
  return (
    <Frame
      title={props.title}
      count={props.points.length}
      active={active}
      setActive={setActive}
      readout={active === null ? null : text(active)}
    >
      {(width) => {
        const labelWidth = Math.min(180, Math.round(width * 0.38));
        const barSpace = width - labelWidth - 64;
        return (
          <svg className="chart" width={width} height={props.points.length * rowHeight} aria-hidden="true">
            {props.points.map((point, i) => {
              const barWidth = Math.max((Math.abs(point.value) / max) * barSpace, 1);
              const label = point.label.length > 24 ? `${point.label.slice(0, 23)}…` : point.label;
              return (
                <g
                  key={point.label}
                  transform={`translate(0 ${i * rowHeight})`}
                  className={active === i ? 'chart-item active' : 'chart-item'}
                  onMouseEnter={() => setActive(i)}
                  onMouseLeave={() => setActive(null)}
                >
                  <title>{text(i)}</title>
                  <text x="0" y="17" className="chart-label">
                    {label}
                  </text>
                  <rect x={labelWidth} y="5" width={barWidth} height="16" className="chart-bar" rx="2" />
                  <text x={labelWidth + barWidth + 6} y="17" className="chart-value">
                    {formatValue(point.value, props.percent)}
                  </text>
                </g>
              );
            })}
          </svg>
        );
      }}
    </Frame>
  );
}

export function LineChart(props: {
  points: { x: number; y: number }[];
  dates: boolean;
  xLabel: string;
  yLabel: string;
  title: string;
}) {
  const [active, setActive] = useState<number | null>(null);
  const { points } = props;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [minX, maxX] = [Math.min(...xs), Math.max(...xs)];
  const [minY, maxY] = [Math.min(0, ...ys), Math.max(0, ...ys)];
  const xText = (x: number) => (props.dates ? shortDate(x) : `${humanize(props.xLabel)} ${x}`);
  const text = (i: number) => {
    const point = points[i];
    return point
      ? `${xText(point.x)}: ${formatValue(point.y, false)} ${humanize(props.yLabel).toLowerCase()}`
      : null;
  };
  const height = 170;
  const [left, right, top, bottom] = [44, 12, 10, 34];
  return (
    <Frame
      title={props.title}
      count={points.length}
      active={active}
      setActive={setActive}
      readout={active === null ? null : text(active)}
    >
      {(width) => {
        const sx = (x: number) => left + ((x - minX) / (maxX - minX || 1)) * (width - left - right);
        const sy = (y: number) => top + (1 - (y - minY) / (maxY - minY || 1)) * (height - top - bottom);
        const ticks = [...new Set([0, Math.floor((points.length - 1) / 2), points.length - 1])]
          .map((i) => points[i])
          .filter((p) => p !== undefined);
        const yTicks = [...new Set([minY, 0, maxY])];
        const path = points.map(
          (p, i) => `${i === 0 ? 'M' : 'L'}${sx(p.x).toFixed(1)} ${sy(p.y).toFixed(1)}`,
        );
        return (
          <svg className="chart" width={width} height={height} aria-hidden="true">
            {yTicks.map((y) => (
              <g key={y}>
                <line x1={left} x2={width - right} y1={sy(y)} y2={sy(y)} className="chart-grid" />
                <text x={left - 6} y={sy(y) + 4} className="chart-value" textAnchor="end">
                  {formatValue(y, false)}
                </text>
              </g>
            ))}
            <line
              x1={left}
              x2={width - right}
              y1={height - bottom}
              y2={height - bottom}
              className="chart-axis"
            />
            {ticks.map((p, i) => (
              <text
                key={p.x}
                x={sx(p.x)}
                y={height - bottom + 18}
                className="chart-label"
                textAnchor={i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle'}
              >
                {props.dates ? shortDate(p.x) : String(p.x)}
              </text>
            ))}
            <path d={path.join(' ')} className="chart-line" fill="none" />
            {points.map((p, i) => (
              <circle
                key={p.x}
                cx={sx(p.x)}
                cy={sy(p.y)}
                r={active === i ? 5 : 3.5}
                className="chart-dot chart-item"
                onMouseEnter={() => setActive(i)}
                onMouseLeave={() => setActive(null)}
              >
                <title>{text(i)}</title>
              </circle>
            ))}
          </svg>
        );
      }}
    </Frame>
  );
}

export function Chart(props: { chart: Chartable; title: string }) {
  const { chart } = props;
  if (chart.kind === 'bars')
    return <BarChart points={chart.points} percent={chart.percent} title={props.title} />;
  if (chart.kind === 'line')
    return (
      <LineChart
        points={chart.points}
        dates={chart.dates}
        xLabel={chart.xLabel}
        yLabel={chart.yLabel}
        title={props.title}
      />
    );
  return <p className="stat">{chart.value.toLocaleString('en-US')}</p>;
}
