/**
 * `emberbench evaluation status --run-dir DIR` (docs/sharding.md): every
 * shard of a run folder (src/node/eval/run-dir.ts) as done, partial
 * (resumable), missing, running, locked or invalid, with the exact command
 * that finishes it, and the merge command once every shard is done. The
 * plan's scripts (`shard plan`) read `unfinished` to re-submit only those
 * shards, as Inspect's eval-set re-runs only what failed.
 */

import type { Shard } from '../../core/eval/shard.js';
import { runStatus, shardResultPath, shellWord, type RunSettings, type ShardStatus } from '../../node/front-door/status.js';
import { join } from 'node:path';
import type { CommandContext, CommandModule, ParsedArgs, Report } from '../command.js';

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

async function evaluationStatus(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const runDir = args.required('run-dir');
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
      summary: 'list the shards of a run folder as done, partial or missing, with the command that finishes each',
      description:
        'Reads the run folder that shard plan lays out (run.json, batch/, manifest.json, shards/) and lists every shard: done (its result holds its whole slice and authenticates, replayed as evaluation verify does), partial (a journal or an incomplete result: resumable), missing, running (a live process on this host holds its lock), locked (a process on another host or container holds it) or invalid (its result does not authenticate or is of another run). A partial or missing shard gets the exact evaluation run command that finishes it; once every shard is done, the merge command. `unfinished` lists the shard numbers that are not done (what the plan\'s scripts re-submit). Exit 0 whatever the states; exit 3 for a folder without a valid run.json.',
      positionals: [],
      options: [{ name: 'run-dir', kind: 'value', required: true, valueName: 'DIR', description: 'the run folder (shard plan --run-dir)' }],
      examples: ['emberbench evaluation status --run-dir /work/runs/exp-1 --json'],
      run: (args, context) => evaluationStatus(args, context),
    },
  ],
};
