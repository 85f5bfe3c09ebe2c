import { beforeAll, describe, expect, it } from 'vitest';
import { buildTinyResult, editResultText, type BuiltResult, type Editable } from '../../../test/eval/kit.js';
import { MismatchError, ValidationError } from '../errors.js';
import { fileDigest } from '../hash.js';
import { canonicalJson, type JsonObject } from '../json/canonical.js';
import { authenticateResult } from './authenticate.js';
import { buildManifest } from './manifest.js';

let built: BuiltResult;
beforeAll(async () => {
  built = await buildTinyResult(['1', '7']);
});

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

function authenticate(text: string, opts = {}) {
  return authenticateResult(text, 'result.json', built.suite, opts);
}

/** The first committed episode, step and position whose recorded action is a move. */
function firstMove(value: Editable): { episode: number; step: number; at: number } {
  const episodes = value.episodes as { record: { trajectory: { actions: string }[] } }[];
  for (let e = 0; e < episodes.length; e++) {
    const trajectory = episodes[e]!.record.trajectory;
    for (let s = 0; s < trajectory.length; s++) {
      const at = trajectory[s]!.actions.search(/[NESW]/);
      if (at >= 0) return { episode: e, step: s, at };
    }
  }
  throw new Error('no move in the result');
}

describe('authenticateResult', () => {
  it('authenticates a complete result and returns what the scorer needs', () => {
    const auth = authenticate(built.text, { requiredManifest: buildManifest(built.suite, ['1', '7']), requireComplete: true });
    expect(auth.complete).toBe(true);
    expect(auth.scheduledEpisodes).toBe(6);
    expect(auth.digest).toBe(fileDigest(built.text));
    expect(auth.episodes.map((e) => e.index)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const episode of auth.episodes) {
      const stored = built.result.episodes[episode.index]!;
      expect(canonicalJson(episode.metrics as unknown as JsonObject)).toBe(canonicalJson(stored.metrics as unknown as JsonObject));
      expect(episode.start.seed).toBe(built.manifest.episodes[episode.index]!.seed);
      expect(episode.start.scenario.scenarioId).toBe(episode.scheduled.scenario_id);
      expect(episode.outcome.steps).toBe(stored.record.steps);
      expect(episode.persons.status.length).toBe(stored.metrics.population);
    }
  });

  it('accepts a partial result with declared failures unless completeness is required', () => {
    const partial = editResultText(built.text, (v) => {
      v.episodes = v.episodes.filter((e: Editable) => e.index !== 2 && e.index !== 3 && e.index !== 5);
      v.failures = [
        { index: 2, kind: 'timeout', message: 'act took longer than 300 ms' },
        { index: 3, kind: 'invalid_output', message: 'step 0: action for p0000: move S targets a wall at [3,3]' },
      ];
    });
    const auth = authenticate(partial);
    expect(auth.complete).toBe(false);
    expect(auth.episodes.map((e) => e.index)).toEqual([0, 1, 4]);
    expect(auth.failures.map((f) => [f.index, f.kind])).toEqual([
      [2, 'timeout'],
      [3, 'invalid_output'],
    ]);
    const error = thrown(() => authenticate(partial, { requireComplete: true }));
    expect(error).toBeInstanceOf(MismatchError);
    expect(error.message).toBe('result.json: incomplete: 3 of 6 scheduled episodes have no committed result (2 declared failed)');
  });

  it('requires the given manifest exactly (exit 5)', () => {
    const error = thrown(() => authenticate(built.text, { requiredManifest: buildManifest(built.suite, ['7', '1']) }));
    expect(error).toBeInstanceOf(MismatchError);
    expect(error.message).toContain('differs from the required manifest');
  });

  it('names the episode of a replay mismatch (exit 5)', () => {
    let where = { episode: -1, step: -1, at: -1 };
    const tampered = editResultText(built.text, (v) => {
      where = firstMove(v);
      const step = v.episodes[where.episode].record.trajectory[where.step];
      step.actions = step.actions.slice(0, where.at) + '.' + step.actions.slice(where.at + 1);
    });
    const error = thrown(() => authenticate(tampered));
    expect(error).toBeInstanceOf(MismatchError);
    expect(error.message).toContain(`result.json: episodes[${where.episode}].record (episode ${where.episode}): trajectory[${where.step}]`);
  });

  it('rejects a changed outcome (exit 5) and a truncated trajectory (exit 3)', () => {
    const outcome = editResultText(built.text, (v) => {
      v.episodes[0].record.outcomes[0][1] += 1;
    });
    expect(thrown(() => authenticate(outcome))).toBeInstanceOf(MismatchError);
    const truncated = editResultText(built.text, (v) => {
      v.episodes[0].record.trajectory.pop();
      v.episodes[0].record.steps -= 1;
    });
    const error = thrown(() => authenticate(truncated));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('episodes[0].record (episode 0): the record ends at step');
  });

  const tampers: [string, (v: Editable) => void, string][] = [
    ['a changed metric', (v) => (v.episodes[1].metrics.fire_exposure += 1), 'result.json: episodes[1].metrics: differ from the recomputed metrics (episode 1)'],
    ['a changed manifest field', (v) => (v.manifest.suite.suite_version = '1.1'), 'manifest targets suite tiny-eval 1.1'],
    ['a changed manifest episode', (v) => (v.manifest.episodes[4].scenario_hash = 'a'.repeat(64)), 'manifest episodes do not match'],
    ['another pinned version', (v) => (v.manifest.versions.metrics_version = '2.0'), 'manifest.versions.metrics_version'],
    ['a changed manifest_hash', (v) => (v.manifest_hash = 'b'.repeat(64)), 'manifest_hash: is bbbb'],
    ['an episode index out of range', (v) => v.episodes.push({ ...v.episodes[5], index: 6 }), 'episodes[6].index: 6 is not a scheduled episode'],
    ['a duplicate episode', (v) => v.episodes.splice(3, 0, v.episodes[2]), 'episodes[3].index: duplicate episode index 2'],
    ['episodes out of order', (v) => v.episodes.reverse(), 'episodes[1].index: 4 is out of order'],
    ['another episode\'s record', (v) => (v.episodes[1] = { ...v.episodes[0], index: 1 }), 'episodes[1].record.seed: differs from the seed the manifest schedules'],
    ['another scenario\'s record', (v) => (v.episodes[2] = { ...v.episodes[0], index: 2 }), 'episodes[2].record.scenario_id: is "tiny-corridor" but the manifest schedules "tiny-trap"'],
    ['a declaration for a committed episode', (v) => (v.failures = [{ index: 1, kind: 'timeout', message: 'x' }]), 'failures[0]: declares a failure for episode 1, which has a committed result'],
    ['a declaration for an unscheduled episode', (v) => (v.failures = [{ index: 9, kind: 'timeout', message: 'x' }]), 'failures[0].index: 9 is not a scheduled episode'],
    ['a declared "missing"', (v) => (v.failures = [{ index: 1, kind: 'missing', message: 'x' }]), 'failures[0].kind: must be one of'],
    ['a failure message over 2000 characters', (v) => (v.failures = [{ index: 1, kind: 'timeout', message: 'x'.repeat(2001) }]), 'failures[0].message: is longer than 2000'],
    ['an invalid model ID', (v) => (v.model_id = ' padded'), 'model_id: must not start or end with whitespace'],
    ['an unknown field', (v) => (v.comment = 'hi'), 'unknown field "comment"'],
    ['an unknown metric', (v) => (v.episodes[0].metrics.bonus = 1), 'episodes[0].metrics: unknown field "bonus"'],
    ['a missing metric', (v) => delete v.episodes[0].metrics.crowd, 'episodes[0].metrics: missing field "crowd"'],
    ['a float-like metric', (v) => (v.episodes[0].metrics.evacuation_rate = '0.5'), 'episodes[0].metrics.evacuation_rate: must match'],
    ['a malformed record field', (v) => (v.episodes[0].record.steps = '5'), 'episodes[0].record: steps: expected an integer'],
    ['another result version', (v) => (v.evaluation_result_version = '1.1'), 'evaluation_result_version: must be one of "1.0"'],
  ];

  it.each(tampers)('rejects %s (exit 3)', (_name, edit, message) => {
    const error = thrown(() => authenticate(editResultText(built.text, edit)));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain(message);
  });

  it.each([
    ['indented JSON', (t: string) => JSON.stringify(JSON.parse(t), null, 1) + '\n', 'not canonical'],
    ['no final LF', (t: string) => t.slice(0, -1), 'not canonical'],
    ['CRLF', (t: string) => t.slice(0, -1) + '\r\n', 'not canonical'],
    ['keys out of order', (t: string) => t.replace('{"episodes":', '{"model_id":"kit-model","episodes":').replace(',"model_id":"kit-model"}', '}'), 'not canonical'],
    ['a duplicate key', (t: string) => t.replace('{"episodes":', '{"model_id":"x","episodes":'), 'not valid JSON'],
    ['a float', (t: string) => t.replace('"population":3', '"population":3.0'), 'not valid JSON'],
  ])('rejects a non-canonical file: %s (exit 3)', (_name, change, message) => {
    const text = change(built.text);
    expect(text).not.toBe(built.text);
    const error = thrown(() => authenticate(text));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain(message);
  });
});
