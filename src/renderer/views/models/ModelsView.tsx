/**
 * The Models view: every model of the archive; one model's scores over its
 * trials (HistoryChart); and several models compared at once: tick two or
 * more, choose the target they share, and Compare ranks each one's most
 * recent scored trial there with the Leaderboard's own board (order and the
 * paired outcome of each adjacent pair) beside a chart of their scores with
 * intervals and their family scores.
 */

import { useMemo, useRef, useState } from 'react';
import type { ModelHistory, ModelHistoryPoint, ModelsComparison } from '../../../shared/api/contract.js';
import { useFocusOn } from '../../a11y/focus.js';
import { useAction, useApi, useQuery } from '../../app/api-context.js';
import { TRIAL_OUTCOMES } from '../../app/archive-changes.js';
import type { Navigate } from '../../app/navigate.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Busy } from '../../components/ProgressBar.js';
import { points, shortDateTime } from '../../components/format.js';
import { Board } from '../leaderboard/LeaderboardView.js';
import { targetKey } from './chart-geometry.js';
import { FamilyBars, ModelLegend, ScoreIntervals } from './FamilyChart.js';
import { HistoryChart, seriesOf } from './HistoryChart.js';
import './models.css';

/** What the view showed, kept while the app runs so that Back from a trial finds it again. */
const remembered: { model: string | null; ticked: string[] } = { model: null, ticked: [] };

/** The targets the ticked models share: each with every model's most recent scored trial on it. */
function sharedTargets(histories: readonly ModelHistory[]): { key: string; label: string; trials: Map<string, ModelHistoryPoint> }[] {
  const targets = new Map<string, { key: string; label: string; trials: Map<string, ModelHistoryPoint> }>();
  for (const h of histories) {
    const series = seriesOf(h.points);
    for (const p of h.points) {
      const key = targetKey(p);
      let t = targets.get(key);
      if (t === undefined) targets.set(key, (t = { key, label: series.find((s) => s.key === key)!.label, trials: new Map() }));
      // Points come oldest first: the last one seen is the most recent.
      t.trials.set(h.modelId, p);
    }
  }
  return [...targets.values()].filter((t) => t.trials.size >= 2).sort((a, b) => b.trials.size - a.trials.size || a.label.localeCompare(b.label));
}

function History({ modelId, go }: { modelId: string; go: Navigate }) {
  const q = useQuery((a) => a['models.history']({ modelId }), `history:${modelId}`, TRIAL_OUTCOMES);
  const history = q.data?.points ?? [];
  return (
    <div className="card" data-testid="model-history">
      <div className="card-head">
        <h2>History of {modelId}</h2>
        <span className="muted small">{q.data === null ? '' : `${history.length} scored ${history.length === 1 ? 'trial' : 'trials'}`}</span>
      </div>
      <ErrorMessage error={q.error} />
      {q.data === null ? (
        q.error === null && <Busy label="Reading the model's trials…" />
      ) : history.length === 0 ? (
        <EmptyState title="No scored trial of this model yet.">A trial joins the chart once it has a score.</EmptyState>
      ) : (
        <>
          <HistoryChart history={history} onOpen={(trialId) => go({ view: 'trial', trialId })} />
          <table className="data-table compact">
            <caption className="visually-hidden">Scored trials of {modelId}, oldest first</caption>
            <thead>
              <tr>
                <th className="num">Trial</th>
                <th>Created</th>
                <th>Target</th>
                <th className="num">EMBER Score</th>
                <th>95% interval</th>
              </tr>
            </thead>
            <tbody>
              {history.map((p) => (
                <tr key={p.trialId}>
                  <td className="num">
                    <button type="button" className="link" onClick={() => go({ view: 'trial', trialId: p.trialId })}>
                      Trial {p.trialId}
                    </button>
                  </td>
                  <td>{shortDateTime(p.created)}</td>
                  <td>{seriesOf([p])[0]!.label}</td>
                  <td className="num">{p.scoreRounded ?? points(p.score)}</td>
                  <td>{p.intervalLow === null ? 'none' : `[${points(p.intervalLow)}, ${points(p.intervalHigh)}]`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}

function Several({ ticked, go }: { ticked: readonly string[]; go: Navigate }) {
  const api = useApi();
  const key = ticked.join('\u0000');
  const histories = useQuery(async (a) => {
    const answers = await Promise.all(ticked.map((modelId) => a['models.history']({ modelId })));
    const failed = answers.find((r) => !r.ok);
    return failed !== undefined && !failed.ok ? failed : { ok: true as const, value: answers.map((r) => (r.ok ? r.value : { modelId: '', points: [] })) };
  }, `several:${key}`, TRIAL_OUTCOMES);
  const targets = useMemo(() => sharedTargets(histories.data ?? []), [histories.data]);
  const [chosen, setChosen] = useState<string | null>(null);
  const target = targets.find((t) => t.key === chosen) ?? targets[0];
  const action = useAction<ModelsComparison>();
  const [result, setResult] = useState<ModelsComparison | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  useFocusOn(result, resultRef);
  useFocusOn(action.error, errorRef);
  const left = target === undefined ? [] : ticked.filter((m) => !target.trials.has(m));
  return (
    <div className="card" data-testid="models-compare">
      <div className="card-head">
        <h2>Compare several models</h2>
        <span className="muted small">{ticked.length} ticked</span>
      </div>
      <ErrorMessage error={histories.error} />
      {ticked.length < 2 ? (
        <p className="muted">Tick two or more models in the list above to compare them.</p>
      ) : histories.data === null ? (
        histories.error === null && <Busy label="Reading the models' trials…" />
      ) : target === undefined ? (
        <p className="muted">These models have no target in common: no two of them have a scored trial of one manifest and pack (or suite).</p>
      ) : (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            const trialIds = [...target.trials.values()].map((p) => p.trialId);
            void action.run(() => api['models.compare']({ trialIds })).then((c) => setResult(c));
          }}
        >
          <label className="field">
            <span>Target (each model's most recent scored trial on it)</span>
            <select value={target.key} onChange={(e) => setChosen(e.target.value)}>
              {targets.map((t) => (
                <option key={t.key} value={t.key}>
                  {t.label}: {t.trials.size} models
                </option>
              ))}
            </select>
          </label>
          {left.length > 0 && <p className="muted small">Not on this target, so left out: {left.join(', ')}.</p>}
          <button type="submit" className="primary" disabled={action.busy}>
            {action.busy ? 'Comparing…' : `Compare ${target.trials.size} models`}
          </button>
        </form>
      )}
      <div ref={errorRef} tabIndex={-1}>
        <ErrorMessage error={action.error} />
      </div>
      {result !== null && (
        <div ref={resultRef} tabIndex={-1} className="models-result" data-testid="models-result" aria-label="Comparison of several models">
          <Board group={result.group} go={go} />
          <div className="card">
            <h3>Scores with their 95% intervals</h3>
            <ScoreIntervals rows={result.group.rows} />
            <h3>Score by primary family</h3>
            <ModelLegend models={result.families} />
            <FamilyBars models={result.families} />
          </div>
        </div>
      )}
    </div>
  );
}

/** `model`: the model whose history to show, as the address named it (#/models?model=…, a trial page's link), else the one shown last. */
export function ModelsView({ model: asked, go }: { model?: string; go: Navigate }) {
  const models = useQuery((a) => a['models.list']({}), 'models', TRIAL_OUTCOMES);
  const [model, setModel] = useState<string | null>(asked ?? remembered.model);
  const [ticked, setTicked] = useState<string[]>(remembered.ticked);
  const list = models.data ?? [];
  const known = (id: string) => list.some((m) => m.modelId === id);
  const shown = model !== null && (models.data === null || known(model)) ? model : (list.find((m) => m.scored > 0)?.modelId ?? null);
  const tick = (id: string, on: boolean) => {
    const next = on ? [...ticked, id] : ticked.filter((m) => m !== id);
    remembered.ticked = next;
    setTicked(next);
  };
  return (
    <section className="view">
      <header className="view-header">
        <h1 tabIndex={-1}>Models</h1>
        <p>Each model's scores over its trials, and several models compared at once with the leaderboard's paired outcomes.</p>
      </header>
      <ErrorMessage error={models.error} />
      {asked !== undefined && models.data !== null && !known(asked) && (
        <div className="notice bad" role="status" data-testid="model-unknown">
          This archive holds no trial of a model named <strong>{asked}</strong> (deleted, or another archive): choose one below.
        </div>
      )}
      {models.data === null ? (
        models.error === null && <Busy label="Listing the models…" />
      ) : list.length === 0 ? (
        <div className="card">
          <EmptyState title="No model yet.">Run or import an evaluation: its model appears here.</EmptyState>
        </div>
      ) : (
        <>
          <div className="card">
            <table className="data-table compact" data-testid="models-list">
              <caption className="visually-hidden">Models in the archive</caption>
              <thead>
                <tr>
                  <th>Compare</th>
                  <th>Model</th>
                  <th className="num">Trials</th>
                  <th className="num">Scored</th>
                  <th>Latest trial</th>
                </tr>
              </thead>
              <tbody>
                {list.map((m) => (
                  <tr key={m.modelId} data-model={m.modelId} className={m.modelId === shown ? 'selected' : undefined}>
                    <td>
                      <input type="checkbox" aria-label={`Compare ${m.modelId}`} checked={ticked.includes(m.modelId)} disabled={m.scored === 0} onChange={(e) => tick(m.modelId, e.target.checked)} />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="link"
                        aria-pressed={m.modelId === shown}
                        onClick={() => {
                          remembered.model = m.modelId;
                          setModel(m.modelId);
                        }}
                      >
                        {m.modelId}
                      </button>
                    </td>
                    <td className="num">{m.trials}</td>
                    <td className="num">{m.scored}</td>
                    <td>{shortDateTime(m.latest)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="muted small">Choose a model's name for its history; tick models (with a score) to compare them.</p>
          </div>
          {shown !== null && <History key={shown} modelId={shown} go={go} />}
          <Several key={ticked.join('\u0000')} ticked={ticked.filter(known)} go={go} />
        </>
      )}
    </section>
  );
}
