/**
 * The Compare view: two trials, or two sets of trials of two models, on one
 * manifest (A - B, scoring-v1.0.md section 8, exactly `score compare`): the
 * paired outcome, the delta and its interval, per-family deltas as bars, the
 * paired episode table sorted by difference, the chosen episode replayed
 * side by side in lockstep, and the official exports of both.
 */

import { useEffect, useMemo, useRef, useState } from 'react';
import { useFocusOn } from '../../a11y/focus.js';
import { rowKeys } from '../../a11y/row-keys.js';
import type { ComparisonArtifact, PairedEpisode } from '../../../core/scoring/compare.js';
import type { TrialComparison, TrialRow } from '../../../shared/api/contract.js';
import { useAction, useApi, useQuery } from '../../app/api-context.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { approx, points } from '../../components/format.js';
import { BundleExport, downloadCsv } from '../../components/BundleExport.js';
import { LockstepReplay } from './LockstepReplay.js';
import type { Navigate } from '../../app/navigate.js';
import { CopyLink } from '../../components/CopyLink.js';
import '../../replay/replay.css';
import { TRIAL_OUTCOMES } from '../../app/archive-changes.js';

const OUTCOME_TEXT: Record<string, string> = {
  exact_tie: 'Exact tie: every paired episode scores the same.',
  a_better: 'A is better: the interval is above zero and the delta reaches the practical difference.',
  b_better: 'B is better: the interval is below zero and the delta reaches the practical difference.',
  inconclusive: 'Inconclusive: the interval holds zero or the delta is below the practical difference.',
};

function TrialPicks({ label, trials, chosen, onChange }: { label: string; trials: readonly TrialRow[]; chosen: readonly number[]; onChange: (ids: number[]) => void }) {
  return (
    <fieldset className="pick-list grow" aria-label={label}>
      <legend>
        <strong>{label}</strong>
      </legend>
      {trials.length === 0 && <span className="muted small">No scored trial fits.</span>}
      {trials.map((t) => (
        <label key={t.trialId} className="check small">
          <input type="checkbox" data-trial={t.trialId} checked={chosen.includes(t.trialId)} onChange={(e) => onChange(e.target.checked ? [...chosen, t.trialId] : chosen.filter((x) => x !== t.trialId))} />
          Trial {t.trialId} · {t.modelId} · {t.scoreRounded ?? 'n/a'} · {t.official ? `pack ${t.packId}` : `${t.suiteId} (unofficial)`}
        </label>
      ))}
    </fieldset>
  );
}

export function FamilyBars({ deltas }: { deltas: ComparisonArtifact['family_deltas'] }) {
  const max = Math.max(1, ...deltas.map((d) => Math.abs(approx(d.delta))));
  return (
    <div className="family-bars" data-testid="family-bars" role="list" aria-label="Per-family deltas (A - B)">
      {deltas.map((d) => {
        const v = approx(d.delta);
        const w = (Math.abs(v) / max) * 50;
        return (
          <div key={d.family} className="family-bar" role="listitem" data-family={d.family} data-delta={d.delta}>
            <span>{d.family}</span>
            <span className="track">
              <span className="axis" />
              <span className={`fill ${v >= 0 ? 'pos' : 'neg'}`} style={{ left: v >= 0 ? '50%' : `${50 - w}%`, width: `${w}%` }} />
            </span>
            <span className="num">{v >= 0 ? '+' : ''}{points(d.delta)}</span>
          </div>
        );
      })}
    </div>
  );
}

type Order = 'asc' | 'desc' | 'abs';

function sortPaired(episodes: readonly PairedEpisode[], order: Order): PairedEpisode[] {
  const key = (e: PairedEpisode) => approx(e.difference);
  const rows = [...episodes];
  if (order === 'asc') rows.sort((x, y) => key(x) - key(y) || x.index - y.index);
  else if (order === 'desc') rows.sort((x, y) => key(y) - key(x) || x.index - y.index);
  else rows.sort((x, y) => Math.abs(key(y)) - Math.abs(key(x)) || x.index - y.index);
  return rows;
}

/** What the address names: the trials of each side and the episode replayed (router.ts). */
export interface ComparePlace {
  readonly a?: readonly number[];
  readonly b?: readonly number[];
  readonly episode?: number;
}

export function CompareView({ chosen, go }: { chosen: ComparePlace; go: Navigate }) {
  const api = useApi();
  const trials = useQuery((a) => a['trials.list']({ limit: 1000, sort: 'created', direction: 'desc' }), 'compare-trials', TRIAL_OUTCOMES);
  const scored = (trials.data?.rows ?? []).filter((t) => t.score !== null);
  const [a, setA] = useState<number[]>([]);
  const [b, setB] = useState<number[]>([]);
  const first = scored.find((t) => t.trialId === a[0]);
  const sideB = first === undefined ? [] : scored.filter((t) => t.manifestHash === first.manifestHash && t.modelId !== first.modelId && t.official === first.official);
  const sideA = first === undefined ? scored : scored.filter((t) => t.manifestHash === first.manifestHash && t.modelId === first.modelId);
  const action = useAction<TrialComparison>();
  const [result, setResult] = useState<{ a: number[]; b: number[]; comparison: TrialComparison } | null>(null);
  // Largest difference first: the episodes that decide the comparison, not exact ties, open the table.
  const [order, setOrder] = useState<Order>('abs');
  // The address is the comparison: Compare moves to it, and every address (typed, copied, Back, Forward) is compared here.
  const chosenA = (chosen.a ?? []).join(',');
  const chosenB = (chosen.b ?? []).join(',');
  useEffect(() => {
    const ids = (text: string): number[] => (text === '' ? [] : text.split(',').map(Number));
    const [wantA, wantB] = [ids(chosenA), ids(chosenB)];
    setA(wantA);
    setB(wantB);
    if (wantA.length === 0 || wantB.length === 0) {
      setResult(null);
      return;
    }
    void action.run(() => api['compare.trials']({ a: wantA, b: wantB })).then((c) => setResult(c === null ? null : { a: wantA, b: wantB, comparison: c }));
  }, [api, chosenA, chosenB]);
  const episode = result === null ? null : (chosen.episode ?? null);
  const setEpisode = (index: number): void => {
    if (result !== null) go({ view: 'compare', a: result.a, b: result.b, episode: index });
  };
  const artifact = result?.comparison.artifact;
  const paired = useMemo(() => (artifact === undefined ? [] : sortPaired(artifact.episodes, order)), [artifact, order]);
  // Focus follows the action: to the result after Compare, to the message when refused, to the replay of a chosen episode.
  const resultCard = useRef<HTMLDivElement>(null);
  const errorBox = useRef<HTMLDivElement>(null);
  const lockstep = useRef<HTMLDivElement>(null);
  useFocusOn(result, resultCard);
  useFocusOn(action.error, errorBox);
  useFocusOn(episode, lockstep);

  return (
    <section className="view">
      <header className="view-header">
        <h1 tabIndex={-1}>Compare</h1>
        <p>Two models on one manifest, paired episode by episode (A − B), exactly as `emberbench score compare` decides.</p>
      </header>
      <ErrorMessage error={trials.error} />
      <form
        className="card form"
        onSubmit={(e) => {
          e.preventDefault();
          if (a.join(',') === chosenA && b.join(',') === chosenB && chosen.episode === undefined) {
            void action.run(() => api['compare.trials']({ a, b })).then((c) => setResult(c === null ? null : { a: [...a], b: [...b], comparison: c }));
          } else go({ view: 'compare', a: [...a], b: [...b] });
        }}
      >
        <div className="split">
          <TrialPicks label="A trials" trials={sideA} chosen={a} onChange={(ids) => {
              setA(ids);
              // B must share A's manifest: a new first A trial starts B afresh.
              if (ids[0] !== a[0]) setB([]);
            }} />
          <TrialPicks label="B trials" trials={sideB} chosen={b} onChange={setB} />
        </div>
        <p className="muted small">Several trials of one model on a side are averaged as repeated trials. B lists the other models' trials on A's manifest.</p>
        <div ref={errorBox} tabIndex={-1}>
          <ErrorMessage error={action.error} onDismiss={action.clear} />
        </div>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={action.busy || a.length === 0 || b.length === 0}>
            {action.busy ? 'Comparing…' : 'Compare'}
          </button>
        </div>
      </form>
      {result !== null && artifact !== undefined && (
        <>
          <div className="card" data-testid="compare-result" ref={resultCard} tabIndex={-1} role="region" aria-label="Comparison result">
            <div className="card-head">
              <h2>
                {artifact.report_a.model_id} (A) vs {artifact.report_b.model_id} (B)
              </h2>
              <span className={`outcome-badge ${artifact.outcome}`} data-testid="compare-outcome">
                {artifact.outcome}
              </span>
              <CopyLink />
            </div>
            <p>{OUTCOME_TEXT[artifact.outcome]}</p>
            <p data-testid="compare-delta">
              Delta A − B: <strong>{artifact.delta === null ? 'n/a' : points(artifact.delta)}</strong> points
              {artifact.interval !== null && (
                <>
                  , 95% interval [{points(artifact.interval.lower)}, {points(artifact.interval.upper)}]
                </>
              )}{' '}
              · A {points(artifact.report_a.score)}, B {points(artifact.report_b.score)} · {artifact.applicable_episodes} applicable episodes · {artifact.official ? `official, pack ${artifact.pack_id}` : 'UNOFFICIAL'}
            </p>
            <h3>Per-family deltas</h3>
            <FamilyBars deltas={artifact.family_deltas} />
            <details>
              <summary className="small">Summary lines (as `score compare` prints them)</summary>
              <pre className="summary">{result.comparison.summary.join('\n')}</pre>
            </details>
          </div>
          <div className="card">
            <div className="card-head">
              <h2>Paired episodes</h2>
              <div className="filters">
                <label>
                  Order
                  <select value={order} onChange={(e) => setOrder(e.target.value as Order)}>
                    <option value="abs">largest difference first</option>
                    <option value="asc">difference, B's best first</option>
                    <option value="desc">difference, A's best first</option>
                  </select>
                </label>
                <button type="button" onClick={() => downloadCsv('comparison-episodes.csv', ['index', 'scenario', 'family', 'a', 'b', 'difference'], paired.map((e) => [e.index, e.scenario_id, e.primary_family, e.a, e.b, e.difference]))}>
                  Download CSV
                </button>
              </div>
            </div>
            <div className="scroll-box" style={{ maxHeight: 560, overflow: 'auto' }} tabIndex={0} role="region" aria-label="Paired episodes (scrolls)">
              <table className="data-table sticky-head" data-testid="paired-table">
                <thead>
                  <tr>
                    <th className="num">#</th>
                    <th>Scenario</th>
                    <th>Family</th>
                    <th className="num">A</th>
                    <th className="num">B</th>
                    <th className="num">A − B</th>
                  </tr>
                </thead>
                <tbody>
                  {paired.map((e) => (
                    <tr key={e.index} className={episode === e.index ? 'clickable replayed' : 'clickable'} tabIndex={0} onClick={() => setEpisode(e.index)} onKeyDown={rowKeys(() => setEpisode(e.index))} aria-current={episode === e.index ? 'true' : undefined} title="Replay this episode side by side (Enter)">
                      <td className="num">{e.index}</td>
                      <td>{e.scenario_id}</td>
                      <td>{e.primary_family}</td>
                      <td className="num">{points(e.a)}</td>
                      <td className="num">{points(e.b)}</td>
                      <td className="num">{points(e.difference)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
          {episode !== null && (
            <div ref={lockstep} tabIndex={-1} data-testid="lockstep-focus" aria-label={`Episode ${episode} side by side`} role="region">
              <LockstepReplay key={episode} trialA={result.a[0]!} trialB={result.b[0]!} index={episode} />
            </div>
          )}
          <BundleExport a={result.a} b={result.b} official={artifact.official} episodes={artifact.episodes.map((e) => ({ index: e.index, label: `#${e.index} ${e.scenario_id} (${e.primary_family})` }))} />
        </>
      )}
    </section>
  );
}
