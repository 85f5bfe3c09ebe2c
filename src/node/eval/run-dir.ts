/**
 * A run folder (docs/sharding.md): one sharded evaluation on shared storage,
 * laid out by `shard plan` and read by `evaluation status`.
 *
 *   DIR/run.json                   the run's settings (this file's RunSettings)
 *   DIR/batch/                     the frozen generated suite (the prepare step)
 *   DIR/manifest.json              the evaluation manifest (the prepare step)
 *   DIR/shards/shard-I-of-N.json   shard I's result (+ .journal while partial, + .lock while written)
 *   DIR/result.json                the merged result
 *
 * Paths in run.json are relative to DIR, so the folder means the same on
 * every node that mounts it, wherever it is mounted.
 */

import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { ValidationError } from '../../core/errors.js';
import { manifestHash } from '../../core/eval/manifest.js';
import { inShard, type Shard } from '../../core/eval/shard.js';
import { loadGeneratedSuite } from '../generated-suite.js';
import { loadSuiteDir, readTextInput } from '../inputs.js';
import { describeHolder, lockStatus } from '../output-lock.js';
import { loadManifestFile } from '../inputs.js';
import { forEachJournalLine, journalPath } from './journal-lines.js';
import { authenticateResultFile } from './result-reader.js';

export const RUN_SETTINGS_VERSION = '1';

export interface RunSettings {
  readonly shards: number;
  /** A frozen generated suite (`generated create`), relative to the run folder. */
  readonly generatedSuite: string;
  readonly manifest: string;
  readonly modelId: string;
  readonly agent: string;
  /** The adapter configuration (--agent-config), relative to the run folder, or null. */
  readonly agentConfig: string | null;
  readonly jobs: number;
}

/** run.json's text: canonical key order, one line. */
export function runSettingsText(s: RunSettings): string {
  return (
    JSON.stringify({
      agent: s.agent,
      agent_config: s.agentConfig,
      ember_run: RUN_SETTINGS_VERSION,
      generated_suite: s.generatedSuite,
      jobs: s.jobs,
      manifest: s.manifest,
      model_id: s.modelId,
      shards: s.shards,
    }) + '\n'
  );
}

function relative(v: unknown): v is string {
  return typeof v === 'string' && v !== '' && !isAbsolute(v) && !v.split('/').includes('..');
}

/** Reads DIR/run.json (exit 3 when missing or malformed, naming what is wrong). */
export function loadRunSettings(runDir: string): RunSettings {
  const path = join(runDir, 'run.json');
  if (!existsSync(path)) throw new ValidationError(`${runDir} is not a run folder: it has no run.json (shard plan writes it; the prepare step copies it there)`);
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(readTextInput(path, 'run settings')) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw new ValidationError(`${path}: not valid JSON`);
  }
  const bad = (field: string, what: string): never => {
    throw new ValidationError(`${path}: ${field} must be ${what}`);
  };
  if (v.ember_run !== RUN_SETTINGS_VERSION) bad('ember_run', `"${RUN_SETTINGS_VERSION}"`);
  if (!Number.isSafeInteger(v.shards) || (v.shards as number) < 1) bad('shards', 'a positive integer');
  if (!Number.isSafeInteger(v.jobs) || (v.jobs as number) < 1) bad('jobs', 'a positive integer');
  for (const f of ['generated_suite', 'manifest']) if (!relative(v[f])) bad(f, 'a path relative to the run folder');
  if (v.agent_config !== null && !relative(v.agent_config)) bad('agent_config', 'null or a path relative to the run folder');
  for (const f of ['model_id', 'agent']) if (typeof v[f] !== 'string' || v[f] === '') bad(f, 'a non-empty string');
  return {
    shards: v.shards as number,
    generatedSuite: v.generated_suite as string,
    manifest: v.manifest as string,
    modelId: v.model_id as string,
    agent: v.agent as string,
    agentConfig: v.agent_config as string | null,
    jobs: v.jobs as number,
  };
}

/** Shard I's result file in the run folder. */
export function shardResultPath(runDir: string, shard: Shard): string {
  return join(runDir, 'shards', `shard-${shard.index}-of-${shard.count}.json`);
}

export type ShardState = 'done' | 'partial' | 'missing' | 'running' | 'locked' | 'invalid';

export interface ShardStatus {
  readonly shard: Shard;
  readonly out: string;
  /**
   * done: every episode of its slice is in its result; partial: a journal or
   * an incomplete result (resumable); missing: nothing yet; running: a live
   * process on this host holds its lock; locked: a process on another host
   * or container holds it (running there, or gone: see `holder`); invalid:
   * its result does not authenticate or is of another run (`problem`).
   */
  readonly state: ShardState;
  /** Entries (episodes and declared failures) it holds. */
  readonly committed: number;
  /** Episodes of its slice. */
  readonly scheduled: number;
  readonly holder?: string;
  readonly problem?: string;
}

export interface RunStatus {
  readonly settings: RunSettings;
  /** Whether the prepare step has run (batch and manifest exist). */
  readonly prepared: boolean;
  readonly shards: readonly ShardStatus[];
}

/** Entry lines of the journal beside `out` (its header not counted; a torn last line left out). */
export function journalEntries(out: string): number {
  let lines = 0;
  forEachJournalLine(journalPath(out), () => void (lines += 1));
  return Math.max(0, lines - 1);
}

/**
 * The state of every shard. A result file is authenticated from scratch
 * (replayed, like `evaluation verify`): a shard counts as done only when it
 * would merge. A journal is counted, not replayed (a resume authenticates it).
 */
export function runStatus(runDir: string): RunStatus {
  const settings = loadRunSettings(runDir);
  const batch = join(runDir, settings.generatedSuite);
  const manifestFile = join(runDir, settings.manifest);
  const prepared = existsSync(batch) && existsSync(manifestFile);
  const manifest = prepared ? loadManifestFile(manifestFile) : undefined;
  const suite = prepared ? loadSuiteDir(loadGeneratedSuite(batch).suiteDir) : undefined;
  const hash = manifest === undefined ? undefined : manifestHash(manifest);
  const shards: ShardStatus[] = [];
  for (let index = 1; index <= settings.shards; index++) {
    const shard = { index, count: settings.shards };
    const out = shardResultPath(runDir, shard);
    const slice = manifest === undefined ? [] : manifest.episodes.filter((e) => inShard(e.index, shard)).map((e) => e.index);
    const base = { shard, out, scheduled: slice.length };
    const lock = lockStatus(out);
    const holder = lock === undefined ? undefined : lock === 'unreadable' ? `unreadable lock ${out}.lock` : describeHolder(lock.holder);
    const held = lock !== undefined && (lock === 'unreadable' || lock.state !== 'dead');
    const heldState: ShardState = lock !== undefined && lock !== 'unreadable' && lock.state === 'alive' ? 'running' : 'locked';
    if (existsSync(journalPath(out))) {
      shards.push({ ...base, state: held ? heldState : 'partial', committed: journalEntries(out), ...(holder === undefined ? {} : { holder }) });
      continue;
    }
    if (!existsSync(out) || suite === undefined || hash === undefined) {
      shards.push({ ...base, state: held ? heldState : 'missing', committed: 0, ...(holder === undefined ? {} : { holder }) });
      continue;
    }
    const covered = new Set<number>();
    try {
      const auth = authenticateResultFile(out, out, suite, { onEpisode: (e) => void covered.add(e.index) });
      if (auth.manifestHash !== hash) throw new ValidationError(`a result of manifest ${auth.manifestHash}, not this run's ${hash}`);
      if (auth.modelId !== settings.modelId) throw new ValidationError(`a result of model ${JSON.stringify(auth.modelId)}, not ${JSON.stringify(settings.modelId)}`);
      for (const f of auth.failures) covered.add(f.index);
    } catch (error) {
      shards.push({ ...base, state: 'invalid', committed: 0, problem: error instanceof Error ? error.message : String(error) });
      continue;
    }
    const done = slice.every((i) => covered.has(i));
    const state: ShardState = held ? heldState : done ? 'done' : 'partial';
    shards.push({ ...base, state, committed: covered.size, ...(holder === undefined ? {} : { holder }) });
  }
  return { settings, prepared, shards };
}
