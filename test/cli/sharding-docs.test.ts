// The sharding examples of docs/sharding.md run for real, without a cluster:
// the Slurm array and merge scripts with the environment Slurm gives them,
// and the shell steps of the Kubernetes Jobs with the JOB_COMPLETION_INDEX
// an Indexed Job gives its pods. Each must end in the bytes of the
// unsharded run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN, ROOT, TSX, runCli } from './run-cli.js';

const DOCS = join(ROOT, 'docs', 'sharding');
const EMBERBENCH = `${process.execPath} --import ${TSX} ${MAIN}`;
const SHARDS = '3';

let scratch: string;

function sh(shell: 'bash' | 'sh', args: readonly string[], cwd: string, env: Record<string, string>): void {
  const result = spawnSync(shell, args, { cwd, env: { ...process.env, EMBERBENCH, ...env }, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
}

/** The folded `args: - >-` block of a Job's container: its lines joined by spaces, as YAML folds them. */
function jobScript(file: string): string {
  const lines = readFileSync(join(DOCS, 'k8s', file), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === '- >-');
  const indent = lines[start + 1]!.length - lines[start + 1]!.trimStart().length;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.length - line.trimStart().length < indent || line.trim() === '') break;
    body.push(line.trim());
  }
  return body.join(' ');
}

/** A work directory with the batch and manifest the prepare step (or the submit script) makes. */
function workDir(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  return dir;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-sharding-docs-'));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('docs/sharding examples', () => {
  it('the Kubernetes Jobs: prepare, three indexed shard pods, merge', () => {
    const work = workDir('k8s');
    // /work first: the replacement command's own paths may contain /work.
    const local = (script: string): string => script.replaceAll('/work', work).replaceAll('node /opt/ember/bin/emberbench.js', EMBERBENCH);
    // The prepare step generates the default batch; a smaller manifest keeps the test short.
    const prepare = local(jobScript('10-prepare-job.yaml')).replace('--seed 0..9', '--seed 0');
    sh('sh', ['-c', prepare], work, {});
    for (let index = 0; index < Number(SHARDS); index++) {
      sh('sh', ['-c', local(jobScript('20-shards-indexed-job.yaml'))], work, {
        JOB_COMPLETION_INDEX: String(index),
        SHARDS,
        MODEL_ID: 'cab',
        AGENT: 'builtin:congestion-aware-v1',
      });
    }
    sh('sh', ['-c', local(jobScript('30-merge-job.yaml'))], work, { SHARDS });
    const unsharded = join(work, 'unsharded.json');
    const run = runCli(['evaluation', 'run', '--generated-suite', join(work, 'batch'), '--manifest', join(work, 'manifest.json'), '--model-id', 'cab', '--agent', 'builtin:congestion-aware-v1', '--out', unsharded, '--json']);
    expect(run.status).toBe(0);
    expect(readFileSync(join(work, 'result.json'))).toEqual(readFileSync(unsharded));
    expect(JSON.parse(readFileSync(join(work, 'score.json'), 'utf8'))).toMatchObject({ model_id: 'cab' });
  }, 300_000);

  it('the Slurm array task and the merge that runs after it', () => {
    const work = workDir('slurm');
    const batch = join(work, 'batch');
    const config = join(ROOT, 'test', 'cli', 'fixtures', 'generated-small.json');
    expect(runCli(['generated', 'create', '--config', config, '--batch-seed', '9', '--out', batch, '--json']).status).toBe(0);
    expect(runCli(['evaluation', 'manifest', '--generated-suite', batch, '--seed', '0', '--seed', '1', '--out', join(work, 'manifest.json'), '--json']).status).toBe(0);
    for (let task = 1; task <= Number(SHARDS); task++) {
      sh('bash', [join(DOCS, 'slurm-shard.sbatch')], work, { SLURM_ARRAY_TASK_ID: String(task), SLURM_ARRAY_TASK_COUNT: SHARDS, MODEL_ID: 'cab' });
    }
    sh('bash', [join(DOCS, 'slurm-merge.sbatch')], work, { SHARDS });
    const unsharded = join(work, 'unsharded.json');
    const run = runCli(['evaluation', 'run', '--generated-suite', batch, '--manifest', join(work, 'manifest.json'), '--model-id', 'cab', '--agent', 'builtin:congestion-aware-v1', '--out', unsharded, '--json']);
    expect(run.status).toBe(0);
    expect(readFileSync(join(work, 'result.json'))).toEqual(readFileSync(unsharded));
  }, 300_000);
});
