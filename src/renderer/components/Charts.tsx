/** Hand-rolled SVG charts: no chart library, nothing remote, readable in print. */
import type { Chartable } from './chart-data';

export function BarChart(props: { points: { label: string; value: number }[]; title: string }) {
  const max = Math.max(...props.points.map((p) => Math.abs(p.value)), 1e-9);
  const rowHeight = 22;
  const height = props.points.length * rowHeight;
  return (
    <svg className="chart" viewBox={`0 0 400 ${height}`} role="img" aria-label={props.title}>
      {props.points.map((point, i) => {
        const width = (Math.abs(point.value) / max) * 220;
        return (
          <g key={point.label} transform={`translate(0 ${i * rowHeight})`}>
            <text x="0" y="15" className="chart-label">
              {point.label.length > 18 ? `${point.label.slice(0, 17)}…` : point.label}
            </text>
            <rect x="130" y="4" width={Math.max(width, 1)} height="14" className="chart-bar" rx="2" />
            <text x={136 + width} y="15" className="chart-value">
              {Number.isInteger(point.value) ? point.value.toLocaleString('en-US') : point.value.toFixed(2)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export function LineChart(props: { points: { x: number; y: number }[]; title: string }) {
  const xs = props.points.map((p) => p.x);
  const ys = props.points.map((p) => p.y);
  const [minX, maxX] = [Math.min(...xs), Math.max(...xs)];
  const [minY, maxY] = [Math.min(0, ...ys), Math.max(...ys, 1e-9)];
  const sx = (x: number) => 30 + ((x - minX) / (maxX - minX || 1)) * 360;
  const sy = (y: number) => 110 - ((y - minY) / (maxY - minY || 1)) * 100;
  const path = props.points.map(
    (p, i) => `${i === 0 ? 'M' : 'L'}${sx(p.x).toFixed(1)} ${sy(p.y).toFixed(1)}`,
  );
  return (
    <svg className="chart" viewBox="0 0 400 120" role="img" aria-label={props.title}>
      <line x1="30" x2="390" y1={sy(0)} y2={sy(0)} className="chart-axis" />
      <text x="0" y="14" className="chart-value">
        {maxY.toFixed(maxY % 1 === 0 ? 0 : 2)}
      </text>
      <text x="0" y="112" className="chart-value">
        {minY.toFixed(minY % 1 === 0 ? 0 : 2)}
      </text>
      <path d={path.join(' ')} className="chart-line" fill="none" />
      {props.points.map((p) => (
        <circle key={p.x} cx={sx(p.x)} cy={sy(p.y)} r="2.5" className="chart-dot" />
      ))}
    </svg>
  );
}

export function Chart(props: { chart: Chartable; title: string }) {
  const { chart } = props;
  if (chart.kind === 'bars') return <BarChart points={chart.points} title={props.title} />;
  if (chart.kind === 'line') return <LineChart points={chart.points} title={props.title} />;
  return <p className="stat">{chart.value.toLocaleString('en-US')}</p>;
}
