/**
 * `episode run` as a service: one scenario, one seed, one local agent, one
 * replay-checked record written atomically. The CLI and the app call this.
 *
 * Order: the scenario (exit 3) and the output path (exit 6) before any agent
 * code is imported; the agent (exit 4); the replay check (exit 5); the write
 * (exit 6).
 */

import { replayRecord } from '../../core/sim/authenticate-record.js';
import { recordBytes, recordBytesDigest, type RunRecord } from '../../core/sim/record.js';
import type { Scenario } from '../../core/world/scenario-types.js';
import { openAgent } from '../agents/open-agent.js';
import type { AgentSandboxOptions } from '../agents/sandbox-options.js';
import { agentModuleInputs, type AgentSpec } from '../agents/spec.js';
import type { EntryPoints } from '../entry-points.js';
import { runFreshEpisode } from '../eval/fresh-episode.js';
import { checkOutputPath, writeOutputFile } from '../files.js';
import { loadScenarioFile } from '../inputs.js';
import type { ResourceScope } from '../lifetime.js';

export interface EpisodeRunOptions {
  readonly scenarioPath: string;
  /** A canonical seed (checked by the caller). */
  readonly seed: string;
  readonly agent: AgentSpec;
  readonly agentPaths: readonly string[];
  readonly actTimeoutMs: number;
  /** The record file; an existing one is replaced only with `force`. */
  readonly out: string;
  readonly force: boolean;
  readonly entryPoints: EntryPoints;
  readonly scope?: ResourceScope;
  /** The sandbox of a module or command agent; default the default policy (sandbox-options.ts). */
  readonly sandbox?: AgentSandboxOptions;
}

export interface EpisodeRunOutcome {
  readonly scenario: Scenario;
  readonly record: RunRecord;
  /** The written record file (canonical JSON + LF). */
  readonly bytes: Uint8Array;
  readonly digest: string;
}

/** Names the fresh record in replay messages (`run record: trajectory[3].moved: ...`). */
const RECORD_SOURCE = 'run record';

export async function runEpisodeToFile(opts: EpisodeRunOptions): Promise<EpisodeRunOutcome> {
  const output = { force: opts.force, inputs: [opts.scenarioPath, ...agentModuleInputs(opts.agent, opts.agentPaths)] };
  const scenario = loadScenarioFile(opts.scenarioPath);
  await checkOutputPath(opts.out, output);

  const session = await openAgent(opts.agent, { agentPaths: opts.agentPaths, actTimeoutMs: opts.actTimeoutMs, entryPoints: opts.entryPoints, scope: opts.scope, sandbox: opts.sandbox });
  let record: RunRecord;
  try {
    record = (await runFreshEpisode(session.factory, scenario, opts.seed)).record;
  } catch (error) {
    // The episode's error is the one reported; closing is best effort then.
    await session.close().catch(() => undefined);
    throw error;
  }
  await session.close();

  // The replay check of the fresh record, as `replay verify` makes it (a
  // difference is a MismatchError, exit 5, and nothing is written). A
  // record carries no metrics, so none are computed: the replay alone
  // authenticates it (environment.md section 7).
  replayRecord(scenario, record, [], RECORD_SOURCE);
  // Written as bytes, hashed and written from the same bytes: no string of
  // the record is made (episode-run.test.ts holds the digest to
  // recordDigest's of the text).
  const bytes = recordBytes(record);
  const digest = recordBytesDigest(bytes);
  await writeOutputFile(opts.out, bytes, output);
  return { scenario, record, bytes, digest };
}
