/**
 * `emberbench evaluation status --run-dir DIR` (docs/sharding.md): every
 * shard of a run folder (src/node/eval/run-dir.ts) as done, partial
 * (resumable), missing, running, locked or invalid, with the exact command
 * that finishes it, and the merge command once every shard is done. The
 * plan's scripts (`shard plan`) read `unfinished` to re-submit only those
 * shards, as Inspect's eval-set re-runs only what failed.
 *
 * `--out OUT` does the same for a single (unsharded) run's output.
 */

import { UsageError } from '../../core/errors.js';
import type { Shard } from '../../core/eval/shard.js';
import { loadManifestFile, loadSuiteDir, outputStatus, runStatus, shardResultPath, shellWord, type OutputStatus, type RunSettings, type ShardStatus } from '../../node/front-door/status.js';
import { join } from 'node:path';
import type { CommandContext, CommandModule, ParsedArgs, Report } from '../command.js';
import { suiteDirArgument } from '../options.js';

function commandLine(words: readonly string[]): string {
  return ['emberbench', ...words].map(shellWord).join(' ');
}

function suiteWords(runDir: string, s: RunSettings): string[] {
  return ['--generated-suite', join(runDir, s.generatedSuite), '--manifest', join(runDir, s.manifest)];
}

/** The command that runs or continues shard I (the same for a fresh and a partial shard: --resume). */
export function shardCommand(runDir: string, s: RunSettings, shard: Shard): string {
  return commandLine([
    'evaluation', 'run', ...suiteWords(runDir, s), '--model-id', s.modelId, '--agent', s.agent,
    ...(s.agentConfig === null ? [] : ['--agent-config', join(runDir, s.agentConfig)]),
    '--jobs', String(s.jobs), '--shard', `${shard.index}/${shard.count}`, '--out', shardResultPath(runDir, shard), '--resume', '--json',
  ]);
}

export function mergeCommand(runDir: string, s: RunSettings): string {
  const shards = Array.from({ length: s.shards }, (_, k) => shardResultPath(runDir, { index: k + 1, count: s.shards }));
  return commandLine(['evaluation', 'merge', ...shards, ...suiteWords(runDir, s), '--out', join(runDir, 'result.json'), '--json']);
}

/** What finishes the shard: its run command, or nothing (done, or someone holds it, or it needs a person). */
function finishCommand(runDir: string, s: RunSettings, status: ShardStatus): string | null {
  switch (status.state) {
    case 'partial':
    case 'missing':
      return shardCommand(runDir, s, status.shard);
    case 'done':
    case 'running':
    case 'locked':
    case 'invalid':
      return null;
  }
}

function humanLine(status: ShardStatus, command: string | null): string {
  const name = `shard ${status.shard.index}/${status.shard.count}`;
  const count = `${status.committed}/${status.scheduled}`;
  switch (status.state) {
    case 'done':
      return `${name}: done (${count})`;
    case 'partial':
    case 'missing':
      return `${name}: ${status.state} (${count}); finish it with:\n  ${command}`;
    case 'running':
      return `${name}: running (${count}), ${status.holder}`;
    case 'locked':
      return `${name}: locked (${count}) by ${status.holder}; if that process is gone, remove ${status.out}.lock`;
    case 'invalid':
      return `${name}: invalid: ${status.problem}; move ${status.out} aside and run the shard again`;
  }
}

/**
 * What to run next for a single output: a journal is finished by
 * `evaluation run --resume` (the agent is not recorded: the interrupted
 * run's --agent); a result not yet checked, by `evaluation verify`.
 */
function outputCommand(status: OutputStatus, suiteWords: readonly string[], manifest: string | undefined): string | null {
  const suite = suiteWords.length > 0 ? suiteWords : ['--suite', 'SUITE_DIR'];
  switch (status.state) {
    case 'partial':
      if (!status.journal) return null;
      return commandLine(['evaluation', 'run', ...suite, '--manifest', manifest ?? 'MANIFEST', '--model-id', status.modelId ?? 'MODEL_ID', '--agent', 'AGENT', '--out', status.out, '--resume']);
    case 'done':
      return status.complete === null ? commandLine(['evaluation', 'verify', ...suite, '--result', status.out]) : null;
    case 'missing':
    case 'running':
    case 'locked':
    case 'invalid':
      return null;
  }
}

function outputLine(status: OutputStatus, command: string | null): string {
  const count = status.scheduled === null ? `${status.committed} entries committed` : `${status.committed}/${status.scheduled} committed`;
  switch (status.state) {
    case 'partial':
      return status.journal
        ? `${status.out}: interrupted, journal ${status.out}.journal holds ${count} (model ${status.modelId ?? 'unknown'}); finish it with the interrupted run's --agent (and the same suite and manifest):\n  ${command}`
        : `${status.out}: incomplete result (${count}): it does not hold every episode of the manifest`;
    case 'done':
      return command === null ? `${status.out}: complete (${count})` : `${status.out}: finished (a result is written once, at the end); check it with:\n  ${command}`;
    case 'missing':
      return `${status.out}: nothing written yet (no result, no journal)`;
    case 'running':
      return `${status.out}: being written (${count}) by ${status.holder}`;
    case 'locked':
      return `${status.out}: locked by ${status.holder}; if that process is gone, remove ${status.out}.lock`;
    case 'invalid':
      return `${status.out}: invalid: ${status.problem}`;
  }
}

async function singleOutputStatus(out: string, args: ParsedArgs, context: CommandContext): Promise<Report> {
  const suite = args.value('suite');
  const generated = args.value('generated-suite');
  const manifestFile = args.value('manifest');
  if (suite !== undefined && generated !== undefined) throw new UsageError('give at most one of --suite DIR or --generated-suite DIR');
  const given = suite !== undefined || generated !== undefined;
  if (given !== (manifestFile !== undefined)) throw new UsageError('give --suite DIR (or --generated-suite DIR) and --manifest FILE together, to check the result against them, or neither');
  const suiteWords = suite !== undefined ? ['--suite', suite] : generated !== undefined ? ['--generated-suite', generated] : [];
  const inputs = given && manifestFile !== undefined ? { suite: loadSuiteDir(suiteDirArgument(args)), manifest: loadManifestFile(manifestFile) } : undefined;
  const status = outputStatus(out, inputs);
  const command = outputCommand(status, suiteWords, manifestFile);
  context.setHumanText?.(outputLine(status, command) + '\n');
  return {
    out,
    state: status.state,
    journal: status.journal,
    committed: status.committed,
    scheduled: status.scheduled,
    complete: status.complete,
    manifest_hash: status.manifestHash,
    model_id: status.modelId,
    holder: status.holder,
    problem: status.problem,
    command,
  };
}

async function evaluationStatus(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const runDirArg = args.value('run-dir');
  const out = args.value('out');
  if ((runDirArg === undefined) === (out === undefined)) throw new UsageError('give exactly one of --run-dir DIR (a sharded run folder) or --out OUT (a single run\'s output)');
  if (out !== undefined) return singleOutputStatus(out, args, context);
  if (args.value('suite') !== undefined || args.value('generated-suite') !== undefined || args.value('manifest') !== undefined) {
    throw new UsageError('--suite, --generated-suite and --manifest go with --out; a run folder names its own (run.json)');
  }
  const runDir = runDirArg!;
  const { settings, prepared, shards } = runStatus(runDir);
  const count = (state: ShardStatus['state']): number => shards.filter((s) => s.state === state).length;
  const unfinished = shards.filter((s) => s.state !== 'done').map((s) => s.shard.index);
  const merge = unfinished.length === 0 ? mergeCommand(runDir, settings) : null;
  const rows = shards.map((s) => ({ status: s, command: finishCommand(runDir, settings, s) }));
  context.setHumanText?.(
    [
      `run ${runDir}: ${settings.shards} shards, ${count('done')} done${prepared ? '' : ' (not prepared: no batch or manifest yet)'}`,
      ...rows.map((r) => humanLine(r.status, r.command)),
      merge === null ? `unfinished: ${unfinished.join(',')}` : `every shard is done; merge with:\n  ${merge}`,
    ].join('\n') + '\n',
  );
  return {
    shard_count: settings.shards,
    prepared,
    done: count('done'),
    partial: count('partial'),
    missing: count('missing'),
    running: count('running'),
    locked: count('locked'),
    invalid: count('invalid'),
    // Comma-separated shard numbers: what the plan's scripts re-submit.
    unfinished: unfinished.join(','),
    shards: rows.map(({ status: s, command }) => ({
      shard: `${s.shard.index}/${s.shard.count}`,
      state: s.state,
      committed: s.committed,
      scheduled: s.scheduled,
      holder: s.holder ?? null,
      problem: s.problem ?? null,
      command,
    })),
    merge_command: merge,
  };
}

export const evaluationStatusModule: CommandModule = {
  group: 'evaluation',
  // The group's help line: the same as evaluation.ts's, whichever module registers last.
  summary: 'evaluation manifests, runs and results',
  commands: [
    {
      words: ['evaluation', 'status'],
      summary: 'where a run stands: the shards of a run folder, or one run\'s output, with the command that finishes it',
      description:
        'With --out OUT, the output of a single (unsharded) evaluation run: running (a live process holds OUT.lock), locked (a process on another host or container holds it), partial (OUT.journal, left by an interrupted run, holds the entries committed so far: evaluation run --resume with the same suite, manifest, model and agent finishes it; the command is printed with the model ID the journal names), done (a result is written once, at the end; with --suite or --generated-suite and --manifest it is authenticated as evaluation verify does and checked to hold every episode of the manifest, else the evaluation verify command is printed), invalid, or missing. With --run-dir DIR, reads the run folder that shard plan lays out (run.json, batch/, manifest.json, shards/) and lists every shard: done (its result holds its whole slice and authenticates, replayed as evaluation verify does), partial (a journal or an incomplete result: resumable), missing, running (a live process on this host holds its lock), locked (a process on another host or container holds it) or invalid (its result does not authenticate or is of another run). A partial or missing shard gets the exact evaluation run command that finishes it; once every shard is done, the merge command. `unfinished` lists the shard numbers that are not done (what the plan\'s scripts re-submit). Exit 0 whatever the states; exit 3 for a folder without a valid run.json.',
      positionals: [],
      options: [
        { name: 'run-dir', kind: 'value', valueName: 'DIR', description: 'the run folder (shard plan --run-dir); give this or --out' },
        { name: 'out', kind: 'value', valueName: 'OUT', description: 'a single run\'s output (evaluation run --out); give this or --run-dir' },
        { name: 'suite', kind: 'value', valueName: 'DIR', description: 'with --out: the suite, to authenticate the result (give this or --generated-suite, with --manifest)' },
        { name: 'generated-suite', kind: 'value', valueName: 'DIR', description: 'with --out: a frozen generated suite (give this or --suite, with --manifest)' },
        { name: 'manifest', kind: 'value', valueName: 'FILE', description: 'with --out: the evaluation manifest the result must complete' },
      ],
      examples: ['emberbench evaluation status --run-dir /work/runs/exp-1 --json', 'emberbench evaluation status --out results/greedy.json --suite scenarios/public --manifest manifest.json'],
      run: (args, context) => evaluationStatus(args, context),
    },
  ],
};
