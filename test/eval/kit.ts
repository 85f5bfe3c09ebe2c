// Shared helpers for the evaluation tests: the tiny suite, results built in
// process with a builtin baseline, and edits that keep a result canonical.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { baselineFactory } from '../../src/core/baselines/registry.js';
import { buildManifest, manifestHash, type EvaluationManifest } from '../../src/core/eval/manifest.js';
import { buildResult, resultText, type EvaluationResult, type ResultEpisode } from '../../src/core/eval/result.js';
import { canonicalJson, type JsonValue } from '../../src/core/json/canonical.js';
import type { Suite } from '../../src/core/world/suite.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import { evaluateEpisode } from '../../src/node/eval/evaluate-episode.js';
import type { EvaluationRunOptions } from '../../src/node/eval/runner.js';
import type { ResultSink } from '../../src/node/eval/sink.js';
import { loadSuiteDir } from '../../src/node/inputs.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const TINY_SUITE = join(ROOT, 'test', 'fixtures', 'suites', 'tiny');
export const EVAL_AGENTS = join(ROOT, 'test', 'fixtures', 'eval-agents');
/** The trap scenario is the second of the tiny suite: with two seeds, episodes 2 and 3. */
export const TRAP_INDICES = [2, 3];

export function tinySuite(): Suite {
  return loadSuiteDir(TINY_SUITE);
}

export interface BuiltResult {
  readonly suite: Suite;
  readonly manifest: EvaluationManifest;
  readonly result: EvaluationResult;
  readonly text: string;
}

/** Every episode of the manifest run with a builtin baseline, as the runner would commit it. */
export async function buildTinyResult(seeds: readonly string[] = ['1', '7'], baseline = 'nearest-exit-greedy-v1', modelId = 'kit-model'): Promise<BuiltResult> {
  const suite = tinySuite();
  const manifest = buildManifest(suite, seeds);
  const factory = baselineFactory(baseline);
  if (factory === undefined) throw new Error(`no baseline ${baseline}`);
  const scenarios = new Map(suite.entries.map((e) => [e.scenarioId, e.scenario]));
  const episodes: ResultEpisode[] = [];
  for (const job of manifest.episodes) {
    episodes.push((await evaluateEpisode(factory, scenarios.get(job.scenario_id)!, job)).episode);
  }
  const result = buildResult(manifest, manifestHash(manifest), modelId, episodes, []);
  return { suite, manifest, result, text: resultText(result) };
}

/** A result-like JSON value to edit freely. */
export type Editable = { [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The text after `edit` on a copy of the value, written canonically again (so only the edit differs). */
export function editResultText(text: string, edit: (value: Editable) => void): string {
  const value = JSON.parse(text) as Editable;
  edit(value);
  return canonicalJson(value as JsonValue) + '\n';
}

/**
 * The runner's options for the tiny suite as `buildTinyResult` made it: the
 * model `kit-model` played by nearest-exit-greedy-v1, one job, a 5 s act
 * deadline, stopping at the first failure; `overrides` replace any of them.
 */
export function tinyRunOptions(built: BuiltResult, sink: ResultSink, overrides: Partial<EvaluationRunOptions> = {}): EvaluationRunOptions {
  return {
    suite: built.suite,
    suiteDir: TINY_SUITE,
    manifest: built.manifest,
    modelId: 'kit-model',
    agent: { kind: 'builtin', id: 'nearest-exit-greedy-v1' },
    agentPaths: [],
    actTimeoutMs: 5000,
    sink,
    continueOnFailure: false,
    jobs: 1,
    entryPoints: defaultEntryPoints(),
    ...overrides,
  };
}

/** A scratch folder for the test file (made before its tests, removed after) and a fresh case folder in it per call. */
export function scratchFolders(prefix: string): () => string {
  let scratch = '';
  let counter = 0;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  return () => {
    const dir = join(scratch, `case-${counter++}`);
    mkdirSync(dir);
    return dir;
  };
}
