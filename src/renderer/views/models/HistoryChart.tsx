/**
 * A model's EMBER Score over its trials: one point per scored trial in time
 * order, its 95% interval drawn as a bar when the trial has one, a colour
 * per target (scores on different targets or manifests are not comparable,
 * so each target is its own line). Every point is a link to its trial
 * (click, or Tab to it and Enter); the table under the chart says the same
 * in words.
 */

import type { KeyboardEvent } from 'react';
import type { ModelHistoryPoint } from '../../../shared/api/contract.js';
import { points as scoreText, shortDateTime, shortHash } from '../../components/format.js';
import { colourOf, targetKey, xOf, yOf, type Plot } from './chart-geometry.js';

const PLOT: Plot = { width: 760, height: 240, left: 44, right: 24, top: 12, bottom: 34 };

export interface Series {
  readonly key: string;
  readonly label: string;
  readonly colour: string;
}

/** The targets of a history, in order of first appearance, each with its colour. */
export function seriesOf(history: readonly ModelHistoryPoint[]): Series[] {
  const out: Series[] = [];
  for (const p of history) {
    const key = targetKey(p);
    if (out.some((s) => s.key === key)) continue;
    out.push({ key, label: `${p.official ? `pack ${p.target}` : `${p.target} (UNOFFICIAL)`}, manifest ${shortHash(p.manifestHash)}`, colour: colourOf(out.length) });
  }
  return out;
}

function pointLabel(p: ModelHistoryPoint): string {
  const interval = p.intervalLow === null || p.intervalHigh === null ? 'no interval' : `95% interval ${scoreText(p.intervalLow)} to ${scoreText(p.intervalHigh)}`;
  return `Trial ${p.trialId}, ${shortDateTime(p.created)}: EMBER Score ${p.scoreRounded ?? scoreText(p.score)}, ${interval}. Open the trial`;
}

export function HistoryChart({ history, onOpen }: { history: readonly ModelHistoryPoint[]; onOpen: (trialId: number) => void }) {
  const series = seriesOf(history);
  const colour = (p: ModelHistoryPoint) => series.find((s) => s.key === targetKey(p))!.colour;
  const n = history.length;
  const key = (trialId: number) => (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(trialId);
    }
  };
  const labelEvery = Math.max(1, Math.ceil(n / 8));
  return (
    <figure className="history-chart">
      <svg viewBox={`0 0 ${PLOT.width} ${PLOT.height}`} width={PLOT.width} height={PLOT.height} role="group" aria-label={`EMBER Score of each of ${n} trials in time order`} data-testid="history-chart">
        {[0, 25, 50, 75, 100].map((t) => (
          <g key={t}>
            <line className="grid-line" x1={PLOT.left} x2={PLOT.width - PLOT.right} y1={yOf(PLOT, String(t))} y2={yOf(PLOT, String(t))} />
            <text className="tick-label" x={PLOT.left - 6} y={yOf(PLOT, String(t))} textAnchor="end" dominantBaseline="middle">
              {t}
            </text>
          </g>
        ))}
        {series.map((s) => {
          const line = history.map((p, k) => ({ p, k })).filter(({ p }) => targetKey(p) === s.key);
          return line.length < 2 ? null : <polyline key={s.key} className="history-line" stroke={s.colour} points={line.map(({ p, k }) => `${xOf(PLOT, k, n)},${yOf(PLOT, p.score)}`).join(' ')} />;
        })}
        {history.map((p, k) => {
          const x = xOf(PLOT, k, n);
          return (
            <g
              key={p.trialId}
              className="history-point"
              role="link"
              tabIndex={0}
              aria-label={pointLabel(p)}
              data-trial={p.trialId}
              onClick={() => onOpen(p.trialId)}
              onKeyDown={key(p.trialId)}
            >
              <title>{pointLabel(p)}</title>
              {p.intervalLow !== null && p.intervalHigh !== null && (
                <g className="history-ci" stroke={colour(p)}>
                  <line x1={x} x2={x} y1={yOf(PLOT, p.intervalLow)} y2={yOf(PLOT, p.intervalHigh)} />
                  <line x1={x - 5} x2={x + 5} y1={yOf(PLOT, p.intervalLow)} y2={yOf(PLOT, p.intervalLow)} />
                  <line x1={x - 5} x2={x + 5} y1={yOf(PLOT, p.intervalHigh)} y2={yOf(PLOT, p.intervalHigh)} />
                </g>
              )}
              <circle cx={x} cy={yOf(PLOT, p.score)} r={6} fill={colour(p)} />
              <circle className="focus-ring" cx={x} cy={yOf(PLOT, p.score)} r={10} />
              {k % labelEvery === 0 || k === n - 1 ? (
                <text className="tick-label" x={x} y={PLOT.height - 16} textAnchor="middle">
                  #{p.trialId}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="small">
        {series.map((s) => (
          <span key={s.key} className="legend-item">
            <i className="swatch" style={{ background: s.colour }} aria-hidden="true" />
            {s.label}
          </span>
        ))}
        <span className="muted">· score 0–100 up, trials oldest to newest across (#trial ID); bars are 95% intervals</span>
      </figcaption>
    </figure>
  );
}
