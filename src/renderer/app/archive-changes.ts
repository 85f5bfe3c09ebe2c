/**
 * Which queries an `archive.changed` event makes stale. Each query names the
 * parts of the archive it shows (its topics); an event refetches only the
 * queries with a topic it touches, so a running trial's progress (a few
 * events a second) refetches the trial lists and that trial's page, not the
 * catalog, the leaderboard or other trials' pages.
 */

import type { ArchiveChange } from '../../shared/api/contract.js';

export type ArchiveTopic =
  /** The stored suites, manifests or packs (the catalog lists). */
  | 'suites'
  | 'manifests'
  | 'packs'
  /** Lists across trials (trials, episodes, the overview): every change of any trial. */
  | 'trials'
  /** What a trial's progress leaves alone: added, ended, scored, signed or repaired trials (leaderboard, comparisons, the runs list). */
  | 'trial-outcomes'
  /** One trial's page: every change of that trial. */
  | { readonly trialId: number };

/** Whether `change` makes a query showing `topics` stale. */
export function touches(change: ArchiveChange, topics: readonly ArchiveTopic[]): boolean {
  return topics.some((topic) => touchesTopic(change, topic));
}

function touchesTopic(change: ArchiveChange, topic: ArchiveTopic): boolean {
  switch (change.kind) {
    case 'catalog':
      return topic === change.what;
    case 'trial':
      if (typeof topic === 'object') return topic.trialId === change.trialId;
      if (topic === 'trials') return true;
      if (topic === 'trial-outcomes') return change.what !== 'progress';
      return false;
  }
}

/** The overview shows something of everything. */
export const EVERYTHING: readonly ArchiveTopic[] = ['suites', 'manifests', 'packs', 'trials'];

/** Lists across trials, and the runs list (its counters move with every committed episode). */
export const TRIAL_LISTS: readonly ArchiveTopic[] = ['trials'];

/** The leaderboard and the comparison's trial picker: scored, added or changed trials, never mere progress. */
export const TRIAL_OUTCOMES: readonly ArchiveTopic[] = ['trial-outcomes'];
