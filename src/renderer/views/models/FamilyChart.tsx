/**
 * The chart of several models compared: each model's EMBER Score with its
 * 95% interval on the 0–100 scale, then one group of bars per primary
 * family, a bar per model (in the board's order and colours). Values are
 * printed beside every bar, rounded as the CLI rounds them.
 */

import type { LeaderboardRow, ModelFamilies } from '../../../shared/api/contract.js';
import { approx, points } from '../../components/format.js';
import { colourOf } from './chart-geometry.js';

const LABEL = 200;
const SCALE = 360;
const VALUE = 280;
const WIDTH = LABEL + SCALE + VALUE;
const x = (score: string) => LABEL + (Math.min(100, Math.max(0, approx(score))) / 100) * SCALE;

function Axis({ y }: { y: number }) {
  return (
    <g>
      {[0, 25, 50, 75, 100].map((t) => (
        <g key={t}>
          <line className="grid-line" x1={x(String(t))} x2={x(String(t))} y1={0} y2={y} />
          <text className="tick-label" x={x(String(t))} y={y + 14} textAnchor="middle">
            {t}
          </text>
        </g>
      ))}
    </g>
  );
}

const shorten = (label: string) => (label.length > 28 ? label.slice(0, 27) + '…' : label);

export function ScoreIntervals({ rows }: { rows: readonly LeaderboardRow[] }) {
  const row = 26;
  const height = rows.length * row;
  return (
    <svg className="family-chart" viewBox={`0 0 ${WIDTH} ${height + 20}`} width={WIDTH} height={height + 20} role="img" aria-label={`EMBER Score and 95% interval of each of ${rows.length} models`} data-testid="models-scores">
      <Axis y={height} />
      {rows.map((r, k) => (
        <g key={r.modelId} transform={`translate(0 ${k * row})`}>
          <title>{`${r.modelId}: ${r.scoreRounded ?? points(r.score)}${r.intervalLow === null ? '' : ` [${points(r.intervalLow)}, ${points(r.intervalHigh)}]`}`}</title>
          <text className="bar-label" x={LABEL - 10} y={row / 2} dominantBaseline="middle" textAnchor="end">
            {shorten(r.modelId)}
          </text>
          {r.intervalLow !== null && r.intervalHigh !== null && <rect x={x(r.intervalLow)} width={Math.max(2, x(r.intervalHigh) - x(r.intervalLow))} y={row / 2 - 5} height={10} rx={3} fill={colourOf(k)} opacity={0.3} />}
          {r.score !== null && <circle cx={x(r.score)} cy={row / 2} r={5} fill={colourOf(k)} />}
          <text className="bar-value" x={LABEL + SCALE + 10} y={row / 2} dominantBaseline="middle">
            {r.scoreRounded ?? points(r.score)}
            {r.intervalLow === null ? '' : ` [${points(r.intervalLow)}, ${points(r.intervalHigh)}]`}
          </text>
        </g>
      ))}
    </svg>
  );
}

export function FamilyBars({ models }: { models: readonly ModelFamilies[] }) {
  const families: string[] = [];
  for (const m of models) for (const f of m.families) if (!families.includes(f.family)) families.push(f.family);
  const bar = 16;
  const gap = 12;
  const group = models.length * bar + gap;
  const height = families.length * group;
  return (
    <svg className="family-chart" viewBox={`0 0 ${WIDTH} ${height + 20}`} width={WIDTH} height={height + 20} role="img" aria-label={`Score of each primary family for each of ${models.length} models`} data-testid="models-families">
      <Axis y={height} />
      {families.map((family, g) => (
        <g key={family} transform={`translate(0 ${g * group})`}>
          <text className="bar-label" x={LABEL - 10} y={(models.length * bar) / 2} dominantBaseline="middle" textAnchor="end">
            {shorten(family)}
          </text>
          {models.map((m, k) => {
            const score = m.families.find((f) => f.family === family)?.score ?? null;
            return (
              <g key={m.modelId} transform={`translate(0 ${k * bar})`}>
                <title>{`${family}, ${m.modelId}: ${points(score)}`}</title>
                {score !== null && <rect x={LABEL} y={2} width={Math.max(1, x(score) - LABEL)} height={bar - 4} rx={2} fill={colourOf(k)} />}
                <text className="bar-value small" x={LABEL + SCALE + 10} y={bar / 2} dominantBaseline="middle">
                  {points(score)} {shorten(m.modelId)}
                </text>
              </g>
            );
          })}
        </g>
      ))}
    </svg>
  );
}

export function ModelLegend({ models }: { models: readonly { readonly modelId: string }[] }) {
  return (
    <p className="small">
      {models.map((m, k) => (
        <span key={m.modelId} className="legend-item">
          <i className="swatch" style={{ background: colourOf(k) }} aria-hidden="true" />
          {m.modelId}
        </span>
      ))}
    </p>
  );
}
