import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVAL_AGENTS, TINY_SUITE, TRAP_INDICES, buildTinyResult, editResultText, scratchFolders, tinyRunOptions, type BuiltResult } from '../../../test/eval/kit.js';
import { AgentError, EmberError, OutputError, UsageError, ValidationError } from '../../core/errors.js';
import { authenticateResult } from '../../core/eval/authenticate.js';
import { buildManifest } from '../../core/eval/manifest.js';
import { parseAgentSpec, type AgentSpec } from '../agents/spec.js';
import { ResourceScope } from '../lifetime.js';
import { progressLine, runEvaluation, type EvaluationProgress, type EvaluationRunOptions } from './runner.js';
import { JournalCheckpointSink } from './journal-sink.js';
import { MemorySink, type SinkEntry, type SinkState } from './sink.js';

let built: BuiltResult;
const freshDir = scratchFolders('ember-eval-runner-');

beforeAll(async () => {
  built = await buildTinyResult(['1', '7'], 'nearest-exit-greedy-v1', 'kit-model');
});

/** An agent module that does not exist: opening it would fail with exit 4. */
const MISSING_AGENT: AgentSpec = { kind: 'module', module: 'no_such_agent', exportName: 'make' };

type TestOptions = Partial<Omit<EvaluationRunOptions, 'sink'>> & { readonly resume?: boolean };

/** Run options writing to a journalled result file at `out` (the CLI's sink). */
function options(out: string, overrides: TestOptions = {}): EvaluationRunOptions {
  const { resume = false, ...rest } = overrides;
  return tinyRunOptions(built, new JournalCheckpointSink({ path: out, inputs: [TINY_SUITE], resume }), { agentPaths: [EVAL_AGENTS], ...rest });
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('runEvaluation', () => {
  it('writes the result a builtin agent gives, reporting every episode', async () => {
    const out = join(freshDir(), 'result.json');
    const progress: EvaluationProgress[] = [];
    const summary = await runEvaluation(options(out, { onProgress: (p) => progress.push(p) }));
    expect(readFileSync(out, 'utf8')).toBe(built.text);
    expect(summary).toMatchObject({ scheduledEpisodes: 6, completedEpisodes: 6, failedEpisodes: 0, complete: true, ranEpisodes: 6 });
    expect(summary.digest).toBe(authenticateResult(built.text, out, built.suite).digest);
    expect(progress.map((p) => [p.finished, p.index, p.status])).toEqual([0, 1, 2, 3, 4, 5].map((i) => [i + 1, i, 'done']));
    const line = progressLine(progress[2]!);
    expect(line).toMatch(/^episode 3\/6 done \(tiny-trap, (all_resolved|horizon), \d+ steps\); elapsed \d+\.\d s, ETA \d+\.\d s$/);
  });

  it('gives the same bytes with --jobs 2 (worker threads) as serially', async () => {
    const out = join(freshDir(), 'result.json');
    const progress: EvaluationProgress[] = [];
    await runEvaluation(options(out, { jobs: 2, onProgress: (p) => progress.push(p) }));
    expect(readFileSync(out, 'utf8')).toBe(built.text);
    expect(progress.map((p) => p.finished)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(progress.map((p) => p.index).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('gives the same bytes for a module agent with --jobs 1 and --jobs 3', async () => {
    const agent = parseAgentSpec('eval_agents:makeGreedy');
    const serial = join(freshDir(), 'r.json');
    const parallel = join(freshDir(), 'r.json');
    await runEvaluation(options(serial, { agent }));
    await runEvaluation(options(parallel, { agent, jobs: 3 }));
    expect(readFileSync(parallel, 'utf8')).toBe(readFileSync(serial, 'utf8'));
    expect(authenticateResult(readFileSync(serial, 'utf8'), serial, built.suite).complete).toBe(true);
  });

  it('resumes a result file, running only the missing episodes', async () => {
    const out = join(freshDir(), 'result.json');
    writeFileSync(out, editResultText(built.text, (v) => (v.episodes = v.episodes.slice(0, 3))));
    const progress: EvaluationProgress[] = [];
    const summary = await runEvaluation(options(out, { resume: true, onProgress: (p) => progress.push(p) }));
    expect(readFileSync(out, 'utf8')).toBe(built.text);
    expect(summary.ranEpisodes).toBe(3);
    expect(progress.map((p) => [p.finished, p.index])).toEqual([
      [4, 3],
      [5, 4],
      [6, 5],
    ]);
  });

  it('does not open the agent when a resumed result is already complete', async () => {
    const out = join(freshDir(), 'result.json');
    writeFileSync(out, built.text);
    const summary = await runEvaluation(options(out, { resume: true, agent: MISSING_AGENT }));
    expect(summary).toMatchObject({ complete: true, ranEpisodes: 0 });
    expect(readFileSync(out, 'utf8')).toBe(built.text);
  });

  it('refuses an existing output without resume (exit 6) before opening the agent, saying how to go on', async () => {
    const out = join(freshDir(), 'result.json');
    writeFileSync(out, 'someone else\n');
    const error = await rejection(runEvaluation(options(out, { agent: MISSING_AGENT })));
    expect(error).toBeInstanceOf(OutputError);
    expect(error.message).toBe(`output file exists (resume it to continue, or choose another output): ${out}`);
    expect(readFileSync(out, 'utf8')).toBe('someone else\n');
  });

  it.each([
    ['another model', () => built.text, () => ({ modelId: 'other-model' }), OutputError, 'a result of model "kit-model", not "other-model"'],
    ['another manifest', () => built.text, () => ({ manifest: buildManifest(built.suite, ['7', '1']) }), OutputError, 'a result of manifest'],
    ['a tampered file', () => editResultText(built.text, (v) => (v.episodes[0].metrics.fire_exposure += 1)), () => ({}), ValidationError, 'differ from the recomputed'],
    ['a file that is not a result', () => 'not json\n', () => ({}), ValidationError, 'not valid JSON'],
  ])('refuses to resume %s before opening the agent', async (_name, text, overrides, errorClass, message) => {
    const out = join(freshDir(), 'result.json');
    writeFileSync(out, text());
    const error = await rejection(runEvaluation(options(out, { resume: true, agent: MISSING_AGENT, ...overrides() })));
    expect(error).toBeInstanceOf(errorClass);
    expect(error.message).toContain(message);
    expect(readFileSync(out, 'utf8')).toBe(text());
  });

  it('checks the model ID, --jobs and the output directory first', async () => {
    const out = join(freshDir(), 'result.json');
    const badModel = await rejection(runEvaluation(options(out, { modelId: ' x', agent: MISSING_AGENT })));
    expect(badModel).toBeInstanceOf(UsageError);
    expect([(badModel as UsageError).field, badModel.message]).toEqual(['modelId', 'modelId: must not start or end with whitespace']);
    const badJobs = await rejection(runEvaluation(options(out, { jobs: 0, agent: MISSING_AGENT })));
    expect((badJobs as UsageError).field).toBe('jobs');
    expect(badJobs.message).toMatch(/^jobs: must be an integer from 1 to \d+ \(four per core\)$/);
    const missingDir = join(freshDir(), 'no-such-dir', 'result.json');
    expect(await rejection(runEvaluation(options(missingDir, { agent: MISSING_AGENT })))).toBeInstanceOf(OutputError);
    // Only now is the agent opened, in this thread or in every worker.
    expect(await rejection(runEvaluation(options(out, { agent: MISSING_AGENT })))).toBeInstanceOf(AgentError);
    const fromWorkers = await rejection(runEvaluation(options(out, { agent: MISSING_AGENT, jobs: 2 })));
    expect(fromWorkers).toBeInstanceOf(AgentError);
    expect(fromWorkers.message).toContain('cannot import agent module no_such_agent');
  });

  it('stops at an agent failure, keeping the partial result without the failed episode', async () => {
    const dir = freshDir();
    const out = join(dir, 'result.json');
    const error = await rejection(runEvaluation(options(out, { agent: parseAgentSpec('eval_agents:makeThrowsOnTrap') })));
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).failure).toBe('model_error');
    expect(error.message).toContain(`episode ${TRAP_INDICES[0]} (tiny-trap): `);
    const auth = authenticateResult(readFileSync(out, 'utf8'), out, built.suite);
    expect(auth.episodes.map((e) => e.index)).toEqual([0, 1]);
    expect(auth.failures).toEqual([]);
    expect(readdirSync(dir)).toEqual(['result.json']);
  });

  it('declares failures with --continue-on-failure and goes on (--jobs 2)', async () => {
    const out = join(freshDir(), 'result.json');
    const summary = await runEvaluation(options(out, { agent: parseAgentSpec('eval_agents:makeIllegalOnTrap'), continueOnFailure: true, jobs: 2 }));
    expect(summary).toMatchObject({ completedEpisodes: 4, failedEpisodes: 2, complete: false });
    const auth = authenticateResult(readFileSync(out, 'utf8'), out, built.suite);
    expect(auth.episodes.map((e) => e.index)).toEqual([0, 1, 4, 5]);
    expect(auth.failures.map((f) => [f.index, f.kind])).toEqual(TRAP_INDICES.map((i) => [i, 'invalid_output']));
    expect(auth.failures[0]!.message).toContain('targets a wall');
  });

  it('stops on abort: running agents are killed, the journal stays for a resume, no temp file is left', async () => {
    const dir = freshDir();
    const out = join(dir, 'result.json');
    const controller = new AbortController();
    const error = await rejection(
      runEvaluation(
        options(out, {
          agent: parseAgentSpec('eval_agents:makeSlow'),
          jobs: 2,
          signal: controller.signal,
          onProgress: (p) => {
            if (p.finished === 2) controller.abort();
          },
        }),
      ),
    );
    expect(error).toBeInstanceOf(EmberError);
    expect((error as EmberError).kind).toBe('interrupted');
    // Interrupted: OUT is not written; the fsynced journal is what a resume continues.
    expect(readdirSync(dir)).toEqual(['result.json.journal']);
    const progress: EvaluationProgress[] = [];
    const summary = await runEvaluation(options(out, { agent: parseAgentSpec('eval_agents:makeGreedy'), resume: true, onProgress: (p) => progress.push(p) }));
    expect(progress.length).toBeLessThanOrEqual(4);
    expect(summary).toMatchObject({ completedEpisodes: 6, complete: true, ranEpisodes: progress.length });
    expect(authenticateResult(readFileSync(out, 'utf8'), out, built.suite).complete).toBe(true);
    expect(readdirSync(dir)).toEqual(['result.json']);
  });
});

describe('runEvaluation with other sinks', () => {
  it('keeps the result in memory (MemorySink): the same bytes as the file, commits one by one', async () => {
    const sink = new MemorySink();
    const summary = await runEvaluation({ ...options(join(freshDir(), 'unused.json')), sink, jobs: 2 });
    expect(sink.final.text).toBe(built.text);
    expect(sink.committed).toBe(6);
    expect(summary.digest).toBe(authenticateResult(built.text, 'memory', built.suite).digest);
  });

  it('resumes from the state a sink returns and commits sequentially with the state including each entry', async () => {
    const head = built.result.episodes.slice(0, 4);
    const seen: [number, number][] = [];
    let active = 0;
    const sink = new (class extends MemorySink {
      override async commit(entry: SinkEntry, state: SinkState): Promise<void> {
        expect(active).toBe(0);
        active += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        expect(entry.kind).toBe('episode');
        if (entry.kind === 'episode') seen.push([entry.episode.index, state.completed]);
        expect(state.result().episodes.map((e) => e.index)).toContain(entry.kind === 'episode' ? entry.episode.index : -1);
        active -= 1;
        return super.commit(entry, state);
      }
    })({ episodes: head, failures: [] });
    const summary = await runEvaluation({ ...options(join(freshDir(), 'unused.json')), sink, jobs: 2 });
    expect(summary.ranEpisodes).toBe(2);
    expect(seen.map(([i]) => i).sort()).toEqual([4, 5]);
    expect(seen.map(([, n]) => n)).toEqual([5, 6]);
    expect(sink.final.text).toBe(built.text);
  });

  it('scores each episode as it lands when given a scoring context, in this thread and in workers', async () => {
    for (const jobs of [1, 2]) {
      const scored: SinkEntry[] = [];
      const sink = new (class extends MemorySink {
        override commit(entry: SinkEntry, state: SinkState): Promise<void> {
          scored.push(entry);
          return super.commit(entry, state);
        }
      })();
      await runEvaluation({ ...options(join(freshDir(), 'unused.json')), sink, jobs, scoring: {} });
      expect(scored).toHaveLength(6);
      for (const entry of scored) {
        if (entry.kind !== 'episode' || entry.scoring === undefined) throw new Error('expected a scored episode');
        expect(entry.scoring.applicable).toBe(entry.scoring.maxEvacuated > 0);
        if (entry.scoring.applicable) expect(entry.scoring.score).toMatch(/^\d+(\.\d+)?$/);
      }
    }
  });

  it('tells the sink when the run stops, and disposes its scope (no agent process outlives it)', async () => {
    const scope = ResourceScope.root();
    let stoppedWith: unknown;
    let committedAtStop: number[] = [];
    const sink = new (class extends MemorySink {
      override stopped(error: unknown, state: SinkState): Promise<void> {
        stoppedWith = error;
        committedAtStop = state.result().episodes.map((e) => e.index);
        return super.stopped(error, state);
      }
    })();
    const error = await rejection(runEvaluation({ ...options(join(freshDir(), 'unused.json')), sink, scope, agent: parseAgentSpec('eval_agents:makeThrowsOnTrap') }));
    expect(stoppedWith).toBe(error);
    expect(committedAtStop).toEqual([0, 1]);
    expect(scope.size).toBe(0);
  });
});
