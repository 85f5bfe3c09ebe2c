import { describe, expect, it } from 'vitest';
import { TINY_SUITE, buildTinyResult } from '../../../test/eval/kit.js';
import { AgentError, ValidationError } from '../../core/errors.js';
import { authenticateResult } from '../../core/eval/authenticate.js';
import { buildManifest } from '../../core/eval/manifest.js';
import { baselineFactory } from '../../core/baselines/registry.js';
import { buildScoreReport } from '../../core/scoring/report.js';
import { loadSuiteDir } from '../inputs.js';
import { episodeAgentError, evaluateEpisode } from './evaluate-episode.js';

describe('evaluateEpisode', () => {
  it('gives the episode the scorer would score, with the same trial score and M*', async () => {
    const suite = loadSuiteDir(TINY_SUITE);
    const manifest = buildManifest(suite, ['1', '7']);
    const built = await buildTinyResult(['1', '7'], 'congestion-aware-v1', 'm');
    const report = buildScoreReport({ suite, trials: [authenticateResult(built.text, 'r', suite)], target: { kind: 'suite' } });
    const scenarios = new Map(suite.entries.map((e) => [e.scenarioId, e.scenario]));
    for (const job of manifest.episodes) {
      const evaluated = await evaluateEpisode(baselineFactory('congestion-aware-v1')!, scenarios.get(job.scenario_id)!, job, { scoring: {} });
      expect(evaluated.episode).toEqual(built.result.episodes[job.index]);
      const evidence = report.episodes[job.index]!;
      expect(evaluated.scoring!.maxEvacuated).toBe(evidence.max_evacuated);
      expect(evaluated.scoring!.applicable).toBe(evidence.applicable);
      expect(evaluated.scoring!.status).toBe(evidence.trials[0]!.status);
      expect(evaluated.scoring!.score).toBe(evidence.trials[0]!.score);
      expect(evaluated.scoring!.facts.references).toEqual(evidence.trials[0]!.references);
    }
  });

  it('refuses an M* the pack does not pin, and computes nothing more without a scoring context', async () => {
    const suite = loadSuiteDir(TINY_SUITE);
    const job = buildManifest(suite, ['1']).episodes[0]!;
    const scenario = suite.entries[0]!.scenario;
    const plain = await evaluateEpisode(baselineFactory('always-stay')!, scenario, job);
    expect(plain.scoring).toBeUndefined();
    const wrong = { pack: { packId: 'ember-pack-0000000000000000', maxEvacuated: [-1] } };
    await expect(evaluateEpisode(baselineFactory('always-stay')!, scenario, job, { scoring: wrong })).rejects.toThrow(ValidationError);
    await expect(evaluateEpisode(baselineFactory('always-stay')!, scenario, job, { scoring: wrong })).rejects.toThrow(/pins -1/);
  });

  it('names the episode in an agent error, keeping its failure kind', () => {
    const error = episodeAgentError(new AgentError('timeout', 'act took too long'), { index: 4, scenario_id: 'tiny-trap', seed: '1' });
    expect([error.failure, error.message]).toEqual(['timeout', 'episode 4 (tiny-trap): act took too long']);
  });
});
