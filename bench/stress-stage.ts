/**
 * One stage of the stress-scale bench (bench/stress.ts), run as its own
 * program so that its peak resident memory (process.resourceUsage().maxRSS)
 * is its own and no other stage's:
 *
 *   node --import tsx bench/stress-stage.ts STAGE SUITE_DIR RECORD_FILE WARMUP_SUITE_DIR WARMUP_RECORD_FILE
 *
 * SUITE_DIR is a generated suite of one scenario. `simulation` runs the
 * episode (seed 0, static-shortest-path-v1) and writes its record text to
 * RECORD_FILE; the other stages read it. The stage first runs untimed on
 * the WARMUP inputs (the 1x world), so the timed run is JIT-compiled code.
 * Prints one JSON line of StageFigures.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baselineFactory } from '../src/core/baselines/registry.js';
import { measureRecord } from '../src/core/eval/authenticate.js';
import { manifestHash } from '../src/core/eval/manifest.js';
import { computeReferences } from '../src/core/scoring/references.js';
import { recordText, type RunRecord } from '../src/core/sim/record.js';
import { replayRecord } from '../src/core/sim/authenticate-record.js';
import { runEpisode } from '../src/core/sim/episode.js';
import { useNativeHash } from '../src/node/native-hash.js';
import { prepareEpisode } from '../src/core/world/episode-start.js';
import type { Scenario } from '../src/core/world/scenario-types.js';
import { Archive } from '../src/node/archive/archive.js';
import { seedSuite } from '../test/kits/archive-kit.js';
import { readSuiteFolder } from '../src/node/archive/inputs-store.js';
import { insertTrial, storeEpisode } from '../src/node/archive/trials-store.js';
import { scoreEpisode } from '../src/node/eval/score-episode.js';

// A stage process hashes as the CLI does (Node's SHA-256).
useNativeHash();

export const STAGES = ['simulation', 'replay', 'references', 'scoring', 'ingest'] as const;
export type Stage = (typeof STAGES)[number];
export const AGENT = 'static-shortest-path-v1';
export const EPISODE_SEED = '0';

export interface StageFigures {
  /** Median wall seconds of the timed runs. */
  readonly seconds: number;
  /** Median CPU seconds (user + system) of the timed runs: what the ratios use, less disturbed by a busy machine. */
  readonly cpuSeconds: number;
  readonly runs: number;
  readonly maxRssMiB: number;
  readonly rssBeforeMiB: number;
}

const MiB = 2 ** 20;

/** A stage's work on its inputs, loaded; `close` frees what it holds (the archive). */
interface Prepared {
  readonly work: () => unknown;
  readonly close?: () => void;
}

async function prepare(stage: Stage, suiteDir: string, recordFile: string, keepRecord: boolean): Promise<Prepared> {
  const { suite } = readSuiteFolder(suiteDir);
  const entry = suite.entries[0]!;
  // A copy is a new cache key: every call prepares its fire world afresh, as a new process would.
  const fresh = (): Scenario => ({ ...entry.scenario });
  const job = { index: 0, scenario_id: entry.scenarioId, seed: EPISODE_SEED };
  const readRecord = () => JSON.parse(readFileSync(recordFile, 'utf8')) as RunRecord;
  switch (stage) {
    case 'simulation': {
      const factory = baselineFactory(AGENT)!;
      // What `episode run` does before writing: prepare the episode, run it with the agent, build the record text.
      return {
        work: async () => {
          const run = await runEpisode(prepareEpisode(fresh(), EPISODE_SEED), await factory());
          const text = recordText(run.record);
          if (keepRecord) writeFileSync(recordFile, text);
        },
      };
    }
    case 'replay': {
      const record = readRecord();
      // A cold replay, as `replay verify` does in its own process.
      return { work: () => replayRecord(fresh(), record) };
    }
    case 'references': {
      const scenario = fresh();
      const start = prepareEpisode(scenario, EPISODE_SEED);
      return { work: () => computeReferences(scenario.grid, start.fire, start.startCells) };
    }
    case 'scoring': {
      const record = readRecord();
      // What `score` does per episode-trial: the replay check with metrics, references, route events, the score.
      return {
        work: () => {
          const measured = measureRecord(fresh(), record, 'bench record');
          scoreEpisode(job, measured, { index: 0, record, metrics: measured.metrics }, {}, 'bench record');
        },
      };
    }
    case 'ingest': {
      const record = readRecord();
      const metrics = measureRecord(fresh(), record, 'bench record').metrics;
      const dir = mkdtempSync(join(tmpdir(), 'ember-bench-ingest-'));
      const archive = Archive.open(join(dir, 'archive.sqlite'));
      const seeded = seedSuite(archive, suiteDir, 1);
      const families = new Map(seeded.suite.entries.map((e) => [e.scenarioId, e.primaryFamily]));
      return {
        // As a run from the app stores an episode: the trial row, then the episode in its own transaction (record deflated, digests computed).
        work: () => {
          const trialId = archive.write((db) =>
            insertTrial(db, { modelId: 'bench', manifest: seeded.manifest, manifestHash: manifestHash(seeded.manifest), pack: null, status: 'running', origin: 'run', agentLabel: AGENT, runConfig: null, families }),
          );
          archive.write((db) => storeEpisode(db, trialId, { index: 0, record, metrics }, null));
        },
        close: () => {
          archive.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
  }
}

/**
 * Runs the stage once on the warm-up inputs (a smaller world: the JIT
 * compiles the hot paths there), then timed on its inputs. The resident
 * memory is read just before the timed runs; the peak covers all of them,
 * and the warm-up world is the smaller.
 */
export async function runStage(stage: Stage, suiteDir: string, recordFile: string, warmSuiteDir: string, warmRecordFile: string): Promise<StageFigures> {
  const warm = await prepare(stage, warmSuiteDir, warmRecordFile, false);
  await warm.work();
  warm.close?.();
  const real = await prepare(stage, suiteDir, recordFile, true);
  try {
    const rssBeforeMiB = process.memoryUsage().rss / MiB;
    // Short stages run again (up to RUNS times, within about a second) and give their median: one run of a few ms is all noise on a shared machine.
    const wall: number[] = [];
    const cpu: number[] = [];
    const began = performance.now();
    while (wall.length < RUNS && (wall.length === 0 || performance.now() - began < 1000)) {
      const startCpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      await real.work();
      wall.push(Number(process.hrtime.bigint() - start) / 1e9);
      const used = process.cpuUsage(startCpu);
      cpu.push((used.user + used.system) / 1e6);
    }
    return { seconds: median(wall), cpuSeconds: median(cpu), runs: wall.length, maxRssMiB: process.resourceUsage().maxRSS / 1024, rssBeforeMiB };
  } finally {
    real.close?.();
  }
}

const RUNS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

if (process.argv[1]?.endsWith('stress-stage.ts')) {
  const [stage, suiteDir, recordFile, warmSuiteDir, warmRecordFile] = process.argv.slice(2);
  if (!STAGES.includes(stage as Stage) || suiteDir === undefined || recordFile === undefined || warmSuiteDir === undefined || warmRecordFile === undefined) {
    process.stderr.write(`usage: node --import tsx bench/stress-stage.ts ${STAGES.join('|')} SUITE_DIR RECORD_FILE WARMUP_SUITE_DIR WARMUP_RECORD_FILE\n`);
    process.exit(2);
  }
  const figures = await runStage(stage as Stage, suiteDir, recordFile, warmSuiteDir, warmRecordFile);
  process.stdout.write(JSON.stringify(figures) + '\n');
}
