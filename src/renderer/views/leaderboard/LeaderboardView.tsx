/**
 * The Leaderboard view: every model with a score report, per environment
 * pack (official) and per suite (UNOFFICIAL), in scoring-v1.0.md section 8
 * order, each adjacent pair's paired outcome beside it. Official and
 * unofficial boards are kept in separate sections and never mixed.
 */

import { rowKeys } from '../../a11y/row-keys.js';
import { IsolationBadge } from '../../components/IsolationBadge.js';
import { SignerBadge } from '../../components/SignerBadge.js';
import type { AdjacentComparison } from '../../../core/scoring/leaderboard.js';
import type { LeaderboardGroup } from '../../../shared/api/contract.js';
import { useQuery } from '../../app/api-context.js';
import type { Navigate } from '../../app/navigate.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Busy } from '../../components/ProgressBar.js';
import { points, shortHash } from '../../components/format.js';
import '../../replay/replay.css';
import { TRIAL_OUTCOMES } from '../../app/archive-changes.js';

export function Board({ group, go }: { group: LeaderboardGroup; go: Navigate }) {
  const board = group.board;
  const adjacent = (rank: number): AdjacentComparison | undefined => board?.adjacent.find((c) => c.rank_a === rank);
  return (
    <div className="card" data-testid="board" data-official={group.official} data-target={group.target}>
      <div className="card-head">
        <h2>
          {group.official ? `Pack ${group.target}` : `${group.target}`} <span className={`pill ${group.official ? 'official' : 'unofficial'}`}>{group.official ? 'official' : 'UNOFFICIAL'}</span>
        </h2>
        <span className="muted small">manifest {shortHash(group.manifestHash)}</span>
      </div>
      <table className="data-table">
        <thead>
          <tr>
            <th className="num">Rank</th>
            <th>Model</th>
            <th className="num">EMBER Score</th>
            <th>95% interval</th>
            <th>Isolation</th>
            {group.official && <th>Signature</th>}
            <th>Against the next entry down</th>
          </tr>
        </thead>
        <tbody>
          {group.rows.map((r) => {
            const c = adjacent(r.rank);
            return (
              <tr key={r.modelId} className="clickable" tabIndex={0} data-model={r.modelId} onClick={() => go({ view: 'trial', trialId: r.trialIds[0]! })} onKeyDown={rowKeys(() => go({ view: 'trial', trialId: r.trialIds[0]! }))} title={`Open trial ${r.trialIds.join(', ')} (Enter)`}>
                <td className="num">{r.rank}</td>
                <td>{r.modelId}</td>
                <td className="num">
                  {r.scoreRounded ?? points(r.score)}
                  {r.trialIds.length > 1 && <span className="muted series-label"> combined, mean of {r.trialIds.length} trials</span>}
                </td>
                <td>{r.intervalLow === null ? 'n/a' : `[${points(r.intervalLow)}, ${points(r.intervalHigh)}]`}</td>
                <td>
                  <IsolationBadge isolation={r.isolation} />
                </td>
                {group.official && (
                  <td>
                    <SignerBadge signers={r.signers} />
                  </td>
                )}
                <td className="board-vs" data-testid="vs-next">
                  {r.vsNext === null ? (
                    <span className="muted">–</span>
                  ) : (
                    <>
                      <span className={`outcome-badge ${r.vsNext}`}>{r.vsNext}</span>
                      {c !== undefined && c.delta !== null && (
                        <span className="muted">
                          {' '}
                          Δ {points(c.delta)}
                          {c.interval !== null ? ` [${points(c.interval.lower)}, ${points(c.interval.upper)}]` : ''} vs {c.model_b}
                        </span>
                      )}
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {board === null && <p className="muted small">A single model: nothing to compare yet.</p>}
    </div>
  );
}

export function LeaderboardView({ go }: { go: Navigate }) {
  const q = useQuery((a) => a.leaderboard({}), 'leaderboard', TRIAL_OUTCOMES);
  const boards = q.data?.boards ?? [];
  const official = boards.filter((b) => b.official);
  const unofficial = boards.filter((b) => !b.official);
  return (
    <section className="view">
      <header className="view-header">
        <h1 tabIndex={-1}>Leaderboard</h1>
        <p>
          Each model's most recent scored trial per target, in the leaderboard's order (as `emberbench leaderboard`): the score to 0.1 point, then the Safety factor, avoidable casualties, avoidable stranded, the worst scenario and the model ID. A model whose latest trial belongs to a run of K trials is ranked by the combined score of that run's scored trials, labelled as such. The project's
          docs/comparison.md, section "Leaderboard", explains it.
        </p>
      </header>
      <ErrorMessage error={q.error} />
      {q.data === null ? (
        q.error === null && <Busy label="Ranking every model (paired bootstraps)…" />
      ) : boards.length === 0 ? (
        <div className="card">
          <EmptyState title="No scored trial yet.">Run or import an evaluation: every scored trial joins its board.</EmptyState>
        </div>
      ) : (
        <>
          <h2>Official (environment packs)</h2>
          {official.length === 0 ? <p className="muted">No official scores: run against a pack to get one.</p> : official.map((g) => <Board key={`${g.target}|${g.manifestHash}`} group={g} go={go} />)}
          <h2>UNOFFICIAL (suites, no pack)</h2>
          {unofficial.length === 0 ? <p className="muted">No unofficial scores.</p> : unofficial.map((g) => <Board key={`${g.target}|${g.manifestHash}`} group={g} go={go} />)}
        </>
      )}
    </section>
  );
}
