// Which queries an archive.changed event refetches: a running trial's progress
// refetches the trial lists and that trial's page only; catalog changes only
// their own list; an ended or repaired trial the leaderboard too.
import { describe, expect, it } from 'vitest';
import type { ArchiveChange } from '../../shared/api/contract.js';
import { EVERYTHING, touches, TRIAL_LISTS, TRIAL_OUTCOMES, type ArchiveTopic } from './archive-changes.js';

const trial = (trialId: number, what: Extract<ArchiveChange, { kind: 'trial' }>['what']): ArchiveChange => ({ kind: 'trial', trialId, what });

/** The queries of the views, by the topics they declare (src/renderer/views, review, replay). */
const QUERIES: Record<string, readonly ArchiveTopic[]> = {
  'suites.list': ['suites'],
  'manifests.list': ['manifests'],
  'packs.list': ['packs'],
  'agents.list': [],
  'signing.status': [],
  overview: EVERYTHING,
  'trials.list': TRIAL_LISTS,
  'runs.list': TRIAL_LISTS,
  leaderboard: TRIAL_OUTCOMES,
  'trials.get 7': [{ trialId: 7 }],
  'episodes.replay 8': [{ trialId: 8 }],
};

function refetched(change: ArchiveChange): string[] {
  return Object.entries(QUERIES)
    .filter(([, topics]) => touches(change, topics))
    .map(([name]) => name);
}

describe('archive.changed refetches only the affected queries', () => {
  it('progress of a running trial: the trial lists, the overview and that trial, nothing else', () => {
    expect(refetched(trial(7, 'progress'))).toEqual(['overview', 'trials.list', 'runs.list', 'trials.get 7']);
  });

  it('a trial that ended, was added or changed: the leaderboard too, and still only its own page', () => {
    for (const what of ['status', 'added', 'details'] as const) {
      expect(refetched(trial(8, what)), what).toEqual(['overview', 'trials.list', 'runs.list', 'leaderboard', 'episodes.replay 8']);
    }
  });

  it('a catalog change: its own list and the overview', () => {
    expect(refetched({ kind: 'catalog', what: 'suites' })).toEqual(['suites.list', 'overview']);
    expect(refetched({ kind: 'catalog', what: 'manifests' })).toEqual(['manifests.list', 'overview']);
    expect(refetched({ kind: 'catalog', what: 'packs' })).toEqual(['packs.list', 'overview']);
  });

  it('a query without topics never refetches', () => {
    for (const change of [trial(1, 'progress'), trial(1, 'status'), { kind: 'catalog', what: 'suites' } as const]) expect(touches(change, [])).toBe(false);
  });
});
