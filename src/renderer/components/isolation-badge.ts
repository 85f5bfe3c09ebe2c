/**
 * How the views show a trial's isolation level (evaluation.md section 8;
 * docs/agents.md "Sandbox"): a small badge, `none` in the warning colour,
 * because a score of an agent that ran with the user's full rights cannot
 * show that the agent saw only its observations.
 */

import type { TrialRow } from '../../shared/api/contract.js';

export interface IsolationBadgeModel {
  readonly label: string;
  /** The pill's class (styles.css): `isolation-none` is the warning colour. */
  readonly className: string;
  readonly title: string;
  /** Whether the badge warns (isolation `none`). */
  readonly warn: boolean;
}

export function isolationBadge(isolation: TrialRow['isolation']): IsolationBadgeModel {
  switch (isolation) {
    case 'sandboxed':
      return { label: 'sandboxed', className: 'isolation-sandboxed', warn: false, title: 'The agent ran in the bubblewrap sandbox: only its own folder, no network, a private temporary folder, memory and CPU caps.' };
    case 'none':
      return {
        label: 'no sandbox',
        className: 'isolation-none',
        warn: true,
        title: "Isolation none: the agent ran with the user's full rights (files, including the manifest, seeds and scenarios; network). Nothing shows it saw only its observations.",
      };
    case 'in_process':
      return { label: 'in process', className: 'isolation-in-process', warn: false, title: "A builtin baseline or the language-model adapter: the evaluator's own code, run in its process." };
    case null:
    case undefined:
      return { label: 'not recorded', className: 'isolation-unknown', warn: false, title: 'How the agent was isolated was not recorded (an imported result, or a run older than the record).' };
  }
}
