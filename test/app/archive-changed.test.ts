// archive.changed says what changed, so the renderer refetches only what
// shows it (src/renderer/app/archive-changes.ts): catalog additions name
// their list; a run's trial is `added`, then `progress` with each progress
// event while it runs, then `status` once it ended.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ArchiveChange, RunProgressEvent } from '../../src/shared/api/contract.js';
import { TINY_SUITE } from '../eval/kit.js';
import { openServices, tempDir } from '../archive/helpers.js';

const tmp = tempDir('ember-archive-changed-');
afterAll(() => tmp.remove());

describe('archive.changed', () => {
  it('names the catalog list or the trial and what happened to it', async () => {
    const h = await openServices(join(tmp.dir, 'archive.sqlite'));
    try {
      const { handlers } = h.services;
      const changes = (): ArchiveChange[] => h.events.filter((e) => e.event === 'archive.changed').map((e) => e.payload as ArchiveChange);

      const suite = await handlers['suites.add']({ dir: TINY_SUITE });
      expect(changes()).toEqual([{ kind: 'catalog', what: 'suites' }]);
      const manifest = await handlers['manifests.create']({ suiteHash: suite.suiteHash, seeds: ['0..2'] });
      expect(changes().at(-1)).toEqual({ kind: 'catalog', what: 'manifests' });

      const before = h.events.length;
      const { trialId } = await handlers['runs.start']({
        manifestHash: manifest.manifestHash,
        packDigest: null,
        agent: { kind: 'builtin', id: 'always-stay' },
        modelId: 'stay',
        jobs: 1,
        actTimeoutMs: 30_000,
        continueOnFailure: true,
        trials: 1,
      });
      expect((await h.ended(trialId)).state).toBe('complete');
      const run = h.events.slice(before);
      const trialChanges = run.filter((e) => e.event === 'archive.changed').map((e) => e.payload as ArchiveChange);
      expect(trialChanges.every((c) => c.kind === 'trial' && c.trialId === trialId)).toBe(true);
      expect(trialChanges[0]).toEqual({ kind: 'trial', trialId, what: 'added' });
      expect(trialChanges.at(-1)).toEqual({ kind: 'trial', trialId, what: 'status' });
      // Each progress event comes with its change: `progress` while running, `status` for the final one.
      const progress = run.filter((e) => e.event === 'run.progress').map((e) => e.payload as RunProgressEvent);
      expect(trialChanges.slice(1)).toEqual(progress.map((p) => ({ kind: 'trial', trialId, what: p.state === 'running' ? 'progress' : 'status' })));
    } finally {
      await h.services.dispose();
    }
  });
});
