/** The score report as a page: every section of the CLI summary, with charts where a chart helps. */

import { costText } from '../../../core/llm/cost.js';
import { Rational } from '../../../core/stats/rational.js';
import type { ScoreReport } from '../../../core/scoring/report.js';
import type { OperationalRecord } from '../../../core/scoring/operational.js';
import { COMPONENTS, EPISODE_FAILURE_KINDS, QUALITY_COMPONENTS } from '../../../core/scoring/evidence.js';
import { factor, people, points } from '../../components/format.js';
import { Bars, IntervalStrip } from './Bars.js';
import { GLOSSARY, meaningOf } from '../../components/glossary.js';

export function Headline({ report }: { report: ScoreReport }) {
  const pack = report.target.kind === 'pack' ? report.target : null;
  return (
    <div className="card headline">
      <div className="headline-score">
        <span className="score-label">EMBER Score</span>
        <span className="score-value" data-testid="headline-score">
          {points(report.score)}
        </span>
        <span className="score-unit">/ 100 points</span>
      </div>
      <div className="headline-detail">
        <div data-testid="headline-interval">
          {report.interval === null
            ? 'No interval: fewer than 5 applicable episodes.'
            : `95% interval [${points(report.interval.lower)}, ${points(report.interval.upper)}] · stratified bootstrap, ${report.resamples} resamples, this sample only`}
        </div>
        <IntervalStrip score={report.score} lower={report.interval?.lower ?? null} upper={report.interval?.upper ?? null} />
        <div className="muted small">
          {report.official && pack !== null ? (
            <span className="pill official">official · pack {pack.pack_id}</span>
          ) : (
            <span className="pill unofficial">UNOFFICIAL</span>
          )}{' '}
          Model {report.model_id} · {report.trials.length} trial{report.trials.length === 1 ? '' : 's'} · suite {report.suite.suite_id} v{report.suite.suite_version} · scoring v{report.scoring_version}
        </div>
        <div className="muted small">Benchmark-performance points under EMBER scoring version {report.scoring_version}, not a percentage of people evacuated.</div>
      </div>
    </div>
  );
}

export function ComponentsCard({ report }: { report: ScoreReport }) {
  const bars = [
    { label: 'safety factor', value: report.safety.mean, text: factor(report.safety.mean), note: `${report.safety.defined}/${report.safety.total}` },
    { label: 'quality factor', value: report.quality.mean, text: factor(report.quality.mean), note: `${report.quality.defined}/${report.quality.total}` },
    ...COMPONENTS.map((k) => ({ label: k, value: report.components[k].mean, text: factor(report.components[k].mean), note: `${report.components[k].defined}/${report.components[k].total}` })),
  ];
  return (
    <div className="card">
      <h2>Components</h2>
      <p className="muted small">0 to 1; beside each, the episode-trials where it is defined out of the applicable ones (coverage).</p>
      <Bars bars={bars} max={1} label="Safety, quality and the seven components" tone="factor" />
      <details className="glossary" data-testid="glossary">
        <summary>What these terms mean</summary>
        <dl className="figures">
          {GLOSSARY.map((g) => (
            <div key={g.term}>
              <dt>{g.term}</dt>
              <dd>{g.meaning}</dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  );
}

export function FamiliesCard({ report }: { report: ScoreReport }) {
  return (
    <div className="card">
      <h2>Primary families</h2>
      {report.families.length === 0 ? (
        <p className="muted">No applicable episode.</p>
      ) : (
        <Bars bars={report.families.map((f) => ({ label: f.family, value: f.score, text: points(f.score), note: `${f.scenarios} scen.` }))} max={100} label="Score by primary family" />
      )}
      <details>
        <summary>Scenarios ({report.scenarios.length})</summary>
        <Bars bars={report.scenarios.map((s) => ({ label: s.scenario_id, value: s.score, text: points(s.score), note: `${s.applicable_episodes} ep.` }))} max={100} label="Score by scenario" />
      </details>
    </div>
  );
}

function Figures({ rows }: { rows: readonly (readonly [string, string | number])[] }) {
  return (
    <dl className="figures">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt title={meaningOf(k.replace(/ \(.*\)$/, ''))}>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function TailAndZeroCard({ report }: { report: ScoreReport }) {
  const t = report.tail;
  const z = report.zero_score;
  return (
    <div className="card">
      <h2>Tail</h2>
      <Figures
        rows={[
          ['median scenario', points(t.median_scenario)],
          ['worst scenario', t.worst_scenario === null ? 'n/a' : `${points(t.worst_scenario.score)} (${t.worst_scenario.scenario_id})`],
          ['p10 episode', points(t.p10_episode)],
          [`CVaR10 (lowest ${t.cvar10_episodes})`, points(t.cvar10)],
        ]}
      />
      <h2>Zero-score episode-trials</h2>
      <p className="muted small">
        {z.total} of {report.episode_trials.applicable} applicable episode-trials score 0.
      </p>
      <Figures rows={[['catastrophic', z.catastrophic], ...EPISODE_FAILURE_KINDS.map((k) => [k.replace('_', ' '), z[k]] as const)]} />
      <h2>Severe quality failures</h2>
      <Figures rows={QUALITY_COMPONENTS.map((k) => [k, report.robustness.severe_episode_trials[k]] as const)} />
    </div>
  );
}

export function PeopleCard({ report }: { report: ScoreReport }) {
  const p = report.totals.per_trial;
  const c = report.diagnostics.congestion;
  return (
    <div className="card">
      <h2>People per trial</h2>
      <Figures
        rows={[
          ['escapable', people(p.escapable)],
          ['evacuated', people(p.evacuated)],
          ['avoidable casualties', people(p.avoidable_casualties)],
          ['avoidable stranded', people(p.avoidable_stranded)],
          ['unavoidable losses', people(p.unavoidable_losses)],
        ]}
      />
      <h2>Congestion diagnostics</h2>
      <p className="muted small">Not scored: where the crowd jammed.</p>
      <Figures
        rows={[
          ['block rate', factor(c.block_rate)],
          ['contested cell-steps per trial', points(c.contested_cell_steps_per_trial)],
          ['hotspot cells per trial', points(c.hotspot_cells_per_trial)],
          ['peak contested cells', c.peak_contested_cells],
          ['exit throughput', factor(c.exit_throughput)],
        ]}
      />
    </div>
  );
}

export function OperationalCard({ record }: { record: OperationalRecord }) {
  return (
    <div className="card">
      <h2>Operational record</h2>
      <Figures
        rows={[
          ['provider', record.provider_id],
          ['episodes', record.episodes],
          ['latency (s)', record.latency_seconds],
          ['input tokens', record.input_tokens.toLocaleString()],
          ['output tokens', record.output_tokens.toLocaleString()],
          ['cost', record.cost === null ? 'n/a' : `${costText(Rational.parse(record.cost))} ${record.cost_unit ?? ''}`],
          ['retries', record.retries],
          ['timeouts', record.timeouts],
          ['isolation', record.isolation ?? 'not recorded'],
          ...(record.cut === undefined
            ? []
            : ([
                [
                  'cut episode runs (not in the counts above)',
                  `${record.cut.episodes} runs, ${record.cut.calls} calls, ${record.cut.input_tokens.toLocaleString()} input + ${record.cut.output_tokens.toLocaleString()} output tokens${record.cut.cost === null ? '' : `, cost ${costText(Rational.parse(record.cut.cost))} ${record.cost_unit ?? ''}`}`,
                ],
              ] as const)),
        ]}
      />
    </div>
  );
}
