/**
 * The isolation level of a score's trials, as `score` and the app show it
 * (evaluation.md section 8). The level comes from each trial's operational
 * record, never from the score report: the report's bytes do not depend on
 * how the agent was run, but a reader of the score must be told when the
 * agent could read what it was not given (isolation `none`).
 */

import type { IsolationLevel } from './operational.js';

/** A trial's level, or null when its operational record does not state one (written before the field existed). */
export type TrialIsolation = IsolationLevel | null;

function label(level: TrialIsolation): string {
  return level ?? 'not recorded';
}

function trialList(trials: readonly number[]): string {
  return trials.map((t) => `trial ${t}`).join(', ');
}

/**
 * The lines after a score summary, trials numbered from 1 in --result order:
 *
 *   Agent isolation: sandboxed (trial 1, trial 2)
 *   Agent isolation: sandboxed (trial 1), none (trial 2)
 *   WARNING: trial 2 ran without a sandbox (isolation none): ...
 */
export function isolationLines(levels: readonly TrialIsolation[]): string {
  if (levels.length === 0) return '';
  const groups = new Map<string, number[]>();
  levels.forEach((level, i) => {
    const key = label(level);
    const trials = groups.get(key) ?? [];
    trials.push(i + 1);
    groups.set(key, trials);
  });
  const parts = [...groups].map(([key, trials]) => `${key} (${trialList(trials)})`);
  let text = `Agent isolation: ${parts.join(', ')}\n`;
  const unsandboxed = groups.get('none');
  if (unsandboxed !== undefined) {
    const which = unsandboxed.length === levels.length ? 'every trial' : trialList(unsandboxed);
    text +=
      `WARNING: ${which} ran without a sandbox (isolation none): the agent had the user's full rights ` +
      '(files, including the manifest, seeds and scenarios; network; other processes), so nothing shows that it saw only its observations.\n';
  }
  return text;
}

/** The one level of all trials, `mixed` when they differ, null when none is recorded or there are no trials. */
export function overallIsolation(levels: readonly TrialIsolation[]): IsolationLevel | 'mixed' | null {
  const known = new Set(levels);
  if (known.size !== 1) return levels.length === 0 ? null : 'mixed';
  return levels[0] ?? null;
}
