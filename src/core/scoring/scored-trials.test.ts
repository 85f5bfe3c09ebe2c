// A trial evaluated episode by episode (as a streamed result is) scores to
// the same report, byte for byte, as the trial authenticated whole, alone
// or beside trials of the other form, with failures and missing episodes.
import { describe, expect, it } from 'vitest';
import type { AuthenticatedResult } from '../eval/authenticate.js';
import { baselineFactory } from '../baselines/registry.js';
import { buildScoreReport, scoreReportText } from './report.js';
import { evaluateEpisode, mergeFailures, type EvaluatedTrial, type ScoringTrial } from './scored-trials.js';
import { ATTRIBUTION, DOOR, SEALED, TWO_EXITS, fixtureSuite, manifestOf, runTrial } from '../../../test/kits/score-kit.js';

/** The streamed form of an authenticated trial: every committed episode evaluated now, for trial number `trial`. */
function evaluated(result: AuthenticatedResult, trial: number, source: string): EvaluatedTrial {
  return {
    modelId: result.result.model_id,
    manifest: result.result.manifest,
    manifestHash: result.manifestHash,
    digest: result.digest,
    scheduledEpisodes: result.scheduledEpisodes,
    failures: result.failures,
    evaluated: new Map(result.episodes.map((e) => [e.index, evaluateEpisode(trial, e, source)])),
  };
}

describe('scored trials', () => {
  it('a trial evaluated episode by episode scores exactly as the trial authenticated whole', async () => {
    // SEALED has M* = 0 (not applicable): its evidence comes from the evaluated episode too.
    const suite = fixtureSuite([ATTRIBUTION, DOOR, TWO_EXITS, SEALED]);
    const manifest = manifestOf(suite, ['0', '1']);
    const first = await runTrial(suite, manifest, 'model', baselineFactory('fire-aware-shortest-path-v1')!, {
      skip: new Set([1, 4]),
      failures: [{ index: 1, kind: 'timeout', message: 'deadline' }],
    });
    const second = await runTrial(suite, manifest, 'model', baselineFactory('static-shortest-path-v1')!, { skip: new Set([2, 6]) });
    const sources = ['a.json', 'b.json'];
    const failures = [[{ index: 4, kind: 'model_error' as const, message: 'raised' }], []];
    const report = (trials: ScoringTrial[]) => scoreReportText(buildScoreReport({ suite, trials, failures, sources, target: { kind: 'suite' }, resamples: 200 }));

    const whole = report([first.authenticated, second.authenticated]);
    expect(report([evaluated(first.authenticated, 0, 'a.json'), evaluated(second.authenticated, 1, 'b.json')])).toBe(whole);
    expect(report([first.authenticated, evaluated(second.authenticated, 1, 'b.json')])).toBe(whole);
    expect(report([evaluated(first.authenticated, 0, 'a.json'), second.authenticated])).toBe(whole);
    // Episode 2 is missing in trial 1 only, episode 6 in trial 1 only: each form fills the other's gaps.
    expect(whole).toContain('"missing"');
  });

  it('merges failure declarations the same way for both forms', async () => {
    const suite = fixtureSuite([ATTRIBUTION, DOOR]);
    const trial = await runTrial(suite, manifestOf(suite, ['0', '1']), 'model', baselineFactory('fire-aware-shortest-path-v1')!, { skip: new Set([1, 2]) });
    const extra = [{ index: 2, kind: 'invalid_output' as const, message: 'bad json' }];
    const streamed = evaluated(trial.authenticated, 0, 'm.json');
    expect([...mergeFailures(streamed, extra, 'f.json')]).toEqual([...mergeFailures(trial.authenticated, extra, 'f.json')]);
    expect(() => mergeFailures(streamed, [{ index: 0, kind: 'timeout', message: '' }], 'f.json')).toThrow(/has a committed result/);
  });

  it('refuses evidence evaluated for another trial number', async () => {
    const suite = fixtureSuite([ATTRIBUTION]);
    const trial = await runTrial(suite, manifestOf(suite, ['0']), 'model', baselineFactory('fire-aware-shortest-path-v1')!);
    const wrong = evaluated(trial.authenticated, 1, 'm.json');
    expect(() => buildScoreReport({ suite, trials: [wrong], target: { kind: 'suite' } })).toThrow(/evaluated for trial 1, not 0/);
  });
});
