/**
 * Small horizontal bar charts in plain SVG: one bar per item, the exact
 * value printed beside it (rounded as the CLI summary rounds), so the chart
 * never says more or less than the report.
 */

import { approx } from '../../components/format.js';

export interface Bar {
  readonly label: string;
  /** Exact value ("num/den" or decimal), null when undefined. */
  readonly value: string | null;
  /** The text printed beside the bar. */
  readonly text: string;
  readonly note?: string;
}

export function Bars({ bars, max, label, tone = 'score' }: { bars: readonly Bar[]; max: number; label: string; tone?: 'score' | 'factor' }) {
  const rowHeight = 28;
  const labelWidth = 200;
  const barWidth = 210;
  const height = bars.length * rowHeight;
  return (
    <svg className={`bars ${tone}`} role="img" aria-label={label} viewBox={`0 0 ${labelWidth + barWidth + 110} ${height}`} width={labelWidth + barWidth + 110} preserveAspectRatio="xMinYMin meet">
      {bars.map((b, i) => {
        const y = i * rowHeight;
        const w = b.value === null ? 0 : Math.max(1, (Math.min(max, Math.max(0, approx(b.value))) / max) * barWidth);
        return (
          <g key={b.label} transform={`translate(0 ${y})`}>
            <title>{`${b.label}: ${b.text}${b.note === undefined ? '' : ` (${b.note})`}`}</title>
            <text className="bar-label" x={labelWidth - 10} y={rowHeight / 2} dominantBaseline="middle" textAnchor="end">
              {b.label.length > 30 ? b.label.slice(0, 29) + '…' : b.label}
            </text>
            <rect className="bar-track" x={labelWidth} y={6} width={barWidth} height={rowHeight - 12} rx={3} />
            {b.value !== null && <rect className="bar-fill" x={labelWidth} y={6} width={w} height={rowHeight - 12} rx={3} />}
            <text className="bar-value" x={labelWidth + barWidth + 10} y={rowHeight / 2} dominantBaseline="middle">
              {b.text}
              {b.note !== undefined && <tspan className="bar-note"> {b.note}</tspan>}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** The interval as a line on the 0–100 scale with the score marked. */
export function IntervalStrip({ score, lower, upper }: { score: string | null; lower: string | null; upper: string | null }) {
  const x = (v: string) => (Math.min(100, Math.max(0, approx(v))) / 100) * 400 + 10;
  return (
    <svg className="interval" viewBox="0 0 420 34" width="420" height="34" role="img" aria-label="Score and its 95% interval on the 0 to 100 scale">
      <line className="axis" x1={10} x2={410} y1={17} y2={17} />
      {[0, 25, 50, 75, 100].map((t) => (
        <g key={t}>
          <line className="tick" x1={10 + t * 4} x2={10 + t * 4} y1={13} y2={21} />
          <text className="tick-label" x={10 + t * 4} y={33} textAnchor="middle">
            {t}
          </text>
        </g>
      ))}
      {lower !== null && upper !== null && <rect className="ci" x={x(lower)} width={Math.max(2, x(upper) - x(lower))} y={10} height={14} rx={3} />}
      {score !== null && <circle className="mark" cx={x(score)} cy={17} r={5} />}
    </svg>
  );
}
