/**
 * An app run into the archive with large episodes, as the Run view starts
 * one (src/node/services/runs.ts): the runner's worker threads, the archive as
 * its sink (each episode committed in its own transaction), the final
 * result stored and scored in the archive worker. The figure that matters
 * is the longest time the main thread's event loop was held: every IPC
 * call of the app waits behind it. Goal: under 250 ms. The main thread
 * holds its loop for one episode at a time (a record serialized for its
 * commit, composed into the final result), never for the whole result:
 * records and the result are compressed in the thread pool, and the final
 * result is composed from the stored texts rather than parsed and written
 * again. The same holds for importing that result: it is hashed, parsed,
 * authenticated, scored and packed in the archive worker, and only the
 * inserts run on the main thread.
 *
 * EMBER_APP_RUN_PEOPLE, EMBER_APP_RUN_STEPS and EMBER_APP_RUN_SCENARIOS
 * change the size (default 2,500 people x 2,000 steps x 4 scenarios x 2
 * seeds: about 70 MiB of result). With EMBER_APP_RUN_SCENARIOS=33 the
 * result passes 500 MiB: it is then stored and scored without ever being
 * one string (and not imported, since an import reads one text).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Archive } from '../src/node/archive/archive.js';
import { ArchiveSink } from '../src/node/archive/archive-sink.js';
import { seedSuite } from '../test/kits/archive-kit.js';
import { commitImports } from '../src/node/archive/archive-io.js';
import { prepareImportOffThread } from '../src/node/jobs/import-result.js';
import { artifactSize, getArtifact } from '../src/node/archive/artifacts.js';
import { runOffThread, scoreOffThread } from '../src/node/jobs/off-thread.js';
import { getTrialDbRow } from '../src/node/archive/queries.js';
import { scoreJobOf } from '../src/node/jobs/score-job.js';
import { scoreStoredJobOf } from '../src/node/jobs/score-stored.js';
import { insertTrial } from '../src/node/archive/trials-store.js';
import { defaultEntryPoints } from '../src/node/entry-points.js';
import { MAX_TEXT_INPUT_BYTES } from '../src/node/inputs.js';
import { runEvaluation } from '../src/node/eval/runner.js';
import type { Figure } from './harness.js';
import { writeStressHallSuite } from './stress-hall-suite.js';

const BLOCK_GOAL_MS = 250;

function numberFromEnv(name: string, fallback: number): number {
  const value = process.env[name];
  return value === undefined ? fallback : Number(value);
}

/**
 * An event-loop delay monitor that has ticked once: a block that starts
 * right after enable(), before its first timer, is not recorded.
 */
async function startedMonitor(): Promise<IntervalHistogram> {
  const monitor = monitorEventLoopDelay({ resolution: 5 });
  monitor.enable();
  await new Promise((resolve) => setTimeout(resolve, 50));
  return monitor;
}

export async function benchAppRun(): Promise<Figure[]> {
  const people = numberFromEnv('EMBER_APP_RUN_PEOPLE', 2500);
  const steps = numberFromEnv('EMBER_APP_RUN_STEPS', 2000);
  const scenarios = numberFromEnv('EMBER_APP_RUN_SCENARIOS', 4);
  const dir = mkdtempSync(join(tmpdir(), 'ember-bench-app-run-'));
  const archive = Archive.open(join(dir, 'archive.sqlite'));
  try {
    const suiteDir = join(dir, 'suite');
    writeStressHallSuite(suiteDir, 'bench-app-run', { people, steps, scenarios });
    const seeded = seedSuite(archive, suiteDir, 2);
    const families = new Map(seeded.suite.entries.map((e) => [e.scenarioId, e.primaryFamily]));
    const trialId = archive.write((db) =>
      insertTrial(db, { modelId: 'bench', manifest: seeded.manifest, manifestHash: seeded.manifestHash, pack: null, status: 'running', origin: 'run', agentLabel: 'bench', runConfig: null, families }),
    );
    const entryPoints = defaultEntryPoints();
    const whole = await startedMonitor();
    const sink = new ArchiveSink(archive, trialId, {
      score: (result) => scoreOffThread(entryPoints.archiveWorker, scoreJobOf(archive, result, `trial ${trialId}`, seeded.suite.hash, null)),
      scoreStored: (fileDigest) =>
        runOffThread(entryPoints.archiveWorker, { kind: 'score-stored', input: scoreStoredJobOf(archive, trialId, `trial ${trialId}`, fileDigest, seeded.suite.hash, null) }),
    });
    const began = performance.now();
    await runEvaluation({
      suite: seeded.suite,
      suiteDir,
      manifest: seeded.manifest,
      modelId: 'bench',
      agent: { kind: 'builtin', id: 'always-stay' },
      agentPaths: [],
      actTimeoutMs: 60_000,
      sink,
      continueOnFailure: false,
      jobs: 2,
      entryPoints,
    });
    const seconds = (performance.now() - began) / 1000;
    whole.disable();
    const row = getTrialDbRow(archive, trialId)!;
    const size = artifactSize(archive, row.result_digest!);
    const ms = (ns: number): number => ns / 1e6;

    // The same result imported into another archive, as the app's Import does (prepared in the archive worker, then written).
    // Import reads a result as one text: a result over MAX_TEXT_INPUT_BYTES is not imported (its figures are left out).
    let imported: { seconds: number; block: number } | undefined;
    if (size <= MAX_TEXT_INPUT_BYTES) {
      const text = getArtifact(archive, row.result_digest!).toString('utf8');
      const other = Archive.open(join(dir, 'other.sqlite'));
      try {
        seedSuite(other, suiteDir, 2);
        const importing = await startedMonitor();
        const importBegan = performance.now();
        const prepared = await prepareImportOffThread(other, 'result.json', text, entryPoints.archiveWorker);
        if ('duplicate' in prepared) throw new Error('the import was found a duplicate');
        commitImports(other, [prepared]);
        imported = { seconds: (performance.now() - importBegan) / 1000, block: importing.max / 1e6 };
        importing.disable();
      } finally {
        other.close();
      }
    }
    const scored = row.report_digest !== null;
    const note = `${seeded.manifest.episodes.length} episodes of ${people} people x ${steps} steps, ${(size / 2 ** 20).toFixed(0)} MiB of result`;
    return [
      { name: `app run into the archive (${note}), wall`, value: seconds, unit: 's' },
      {
        name: 'longest event-loop block of the main thread during the run',
        value: ms(whole.max),
        unit: 'ms',
        goal: `< ${BLOCK_GOAL_MS} ms`,
        ok: ms(whole.max) < BLOCK_GOAL_MS,
      },
      { name: 'the trial scored (its report stored)', value: scored ? 1 : 0, unit: scored ? '(yes)' : '(NO)' },
      ...(imported === undefined
        ? []
        : [
            { name: 'import of that result into another archive, wall', value: imported.seconds, unit: 's' },
            { name: 'longest event-loop block of the main thread during the import', value: imported.block, unit: 'ms', goal: `< ${BLOCK_GOAL_MS} ms`, ok: imported.block < BLOCK_GOAL_MS },
          ]),
    ];
  } finally {
    archive.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
