/**
 * The EMBER-Efficiency view of a language-model trial (scoring-v1.0.md
 * section 11): points per unit of evaluator-measured cost, from the trial's
 * score report and operational record (efficiencyViewOfRecord, the same
 * exact arithmetic as the library), beside the inference configuration the
 * trial ran. Never part of a score or an order; shown only when the record
 * has a cost and the report a score.
 */

import { efficiencyViewOfRecord, type OperationalRecord } from '../../core/scoring/operational.js';
import type { ScoreReport } from '../../core/scoring/report.js';
import { Rational } from '../../core/stats/rational.js';
import { shortHash } from './format.js';

/** An exact fraction to `places` decimals, for display. */
function decimal(fraction: string, places: number): string {
  return Rational.parse(fraction).toFixed(places);
}

export function EfficiencyCard({ record, report }: { record: OperationalRecord; report: ScoreReport | null }) {
  let view: ReturnType<typeof efficiencyViewOfRecord> | null = null;
  let why: string | null = null;
  if (report === null) why = 'The trial has no score report yet.';
  else if (record.cost === null) why = 'No cost: the configuration had no pricing table, or some answers came without usage fields.';
  else {
    try {
      view = efficiencyViewOfRecord(report, record);
    } catch (error) {
      why = error instanceof Error ? error.message : String(error);
    }
  }
  const totalTokens = record.input_tokens + record.output_tokens;
  return (
    <div className="card" data-testid="efficiency">
      <h2>Efficiency</h2>
      <dl className="figures">
        <div>
          <dt>inference configuration</dt>
          <dd title={record.inference_config_digest}>{shortHash(record.inference_config_digest)}</dd>
        </div>
        <div>
          <dt>tokens per episode</dt>
          <dd>{record.episodes === 0 ? 'n/a' : Math.round(totalTokens / record.episodes).toLocaleString('en-US')}</dd>
        </div>
        {record.response_cache_hits !== undefined && (
          <div>
            <dt>cached answers</dt>
            <dd>{record.response_cache_hits}</dd>
          </div>
        )}
        {view !== null && (
          <>
            <div>
              <dt>cost per episode</dt>
              <dd>
                {decimal(view.cost_per_episode, 6)} {view.cost_unit}
              </dd>
            </div>
            <div>
              <dt>points per {view.cost_unit}</dt>
              <dd data-testid="points-per-unit" title={view.points_per_unit ?? undefined}>
                {view.points_per_unit === null ? 'n/a (zero cost)' : decimal(view.points_per_unit, 1)}
              </dd>
            </div>
          </>
        )}
      </dl>
      {why !== null && <p className="hint">{why}</p>}
      <p className="hint">Points per unit of evaluator-measured cost: the EMBER Score divided by the cost per episode. A view for comparing spend, never part of the score or the leaderboard order.</p>
    </div>
  );
}
