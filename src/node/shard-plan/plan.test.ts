// shard plan's files: deterministic, the Kubernetes objects valid against
// the Kubernetes JSON schemas (the validators kubernetes-models generates
// from the Kubernetes OpenAPI document), the properties a cluster engineer
// asks for present, and every script clean under `bash -n` / `sh -n` and
// shellcheck.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { planFiles, runName, type PlanFile, type PlanOptions } from './plan.js';

const BASE: PlanOptions = {
  backend: 'k8s',
  shards: 4,
  runDir: '/work/runs/exp-1',
  image: 'ghcr.io/acme/ember-workbench:0.1.0',
  storageClass: 'nfs-client',
  secret: 'llm-key',
  modelId: 'qwen2.5-7b',
  agent: 'builtin:openai-chat',
  agentConfig: 'llm.json',
  jobs: 2,
  batchSeed: '7',
  seeds: ['0..9'],
  partition: 'cpu',
  account: 'proj42',
};
const SLURM: PlanOptions = { ...BASE, backend: 'slurm', runDir: '/scratch/ember/exp-1', storageClass: null, secret: null };

let scratch: string;
beforeAll(() => void (scratch = mkdtempSync(join(tmpdir(), 'ember-shard-plan-'))));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function file(files: readonly PlanFile[], name: string): string {
  const found = files.find((f) => f.name === name);
  if (found === undefined) throw new Error(`no ${name} in the plan`);
  return found.text;
}

type Obj = Record<string, unknown>;
const at = (value: unknown, ...path: (string | number)[]): unknown => path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);

describe('shard plan --backend k8s', () => {
  const files = planFiles(BASE);

  it('is the same bytes for the same options, and names Jobs per run', () => {
    expect(planFiles(BASE)).toEqual(files);
    expect(runName('/work/runs/exp-1')).toMatch(/^ember-exp-1-[0-9a-f]{6}$/);
    expect(runName('/work/other/exp-1')).not.toBe(runName('/work/runs/exp-1'));
    expect(files.map((f) => f.name)).toEqual(['.dockerignore', '00-storage.yaml', '05-run-config.yaml', '10-prepare-job.yaml', '20-shards-job.yaml', '25-status-job.yaml', '30-merge-job.yaml', 'Dockerfile', 'Dockerfile.dockerignore', 'run.json', 'run.sh']);
  });

  it('validates against the Kubernetes schemas (and the validator does refuse a bad Job)', () => {
    new PersistentVolumeClaim(parse(file(files, '00-storage.yaml')) as Obj).validate();
    new ConfigMap(parse(file(files, '05-run-config.yaml')) as Obj).validate();
    for (const name of ['10-prepare-job.yaml', '20-shards-job.yaml', '25-status-job.yaml', '30-merge-job.yaml']) new Job(parse(file(files, name)) as Obj).validate();
    const bad = parse(file(files, '20-shards-job.yaml')) as Obj;
    (bad.spec as Obj).completions = 'four';
    expect(() => new Job(bad).validate()).toThrow();
  });

  it('has what a cluster engineer asks for', () => {
    const shards = parse(file(files, '20-shards-job.yaml')) as Obj;
    expect(at(shards, 'spec')).toMatchObject({ completionMode: 'Indexed', completions: 4, parallelism: 4, podReplacementPolicy: 'Failed', backoffLimitPerIndex: 3 });
    expect(at(shards, 'spec', 'podFailurePolicy', 'rules', 0)).toEqual({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] });
    const container = at(shards, 'spec', 'template', 'spec', 'containers', 0) as Obj;
    expect(container.image).toBe(BASE.image);
    expect(container.env).toContainEqual({ name: 'EMBER_API_KEY', valueFrom: { secretKeyRef: { name: 'llm-key', key: 'api-key' } } });
    expect(at(container, 'args', 0)).toContain('--agent-config /work/runs/exp-1/llm.json');
    expect(at(container, 'args', 0)).toContain('exec node /opt/ember/bin/emberbench.js evaluation run');
    for (const name of ['10-prepare-job.yaml', '20-shards-job.yaml', '25-status-job.yaml', '30-merge-job.yaml']) {
      const job = parse(file(files, name)) as Obj;
      expect(at(job, 'metadata', 'name')).toMatch(new RegExp(`^${runName(BASE.runDir)}-`));
      expect(at(job, 'spec', 'template', 'spec', 'securityContext')).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(at(job, 'spec', 'template', 'spec', 'containers', 0, 'resources', 'requests')).toEqual(expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }));
    }
    expect(at(parse(file(files, '00-storage.yaml')), 'spec', 'storageClassName')).toBe('nfs-client');
    expect(JSON.parse(at(parse(file(files, '05-run-config.yaml')), 'data', 'run.json') as string)).toEqual(JSON.parse(file(files, 'run.json')));
    // run.sh waits for success or failure, never for completion alone.
    expect(file(files, 'run.sh')).not.toContain('--for=condition=complete');
    expect(file(files, 'run.sh')).toContain('*" Failed "*)');
  });

  it('the Dockerfile: Node 24, two stages, the compiler only in the first, not root', () => {
    const stages = file(files, 'Dockerfile').split(/^FROM /m).slice(1);
    expect(stages).toHaveLength(2);
    expect(stages.every((s) => s.startsWith('node:24-bookworm-slim'))).toBe(true);
    expect(stages[0]).toContain('g++');
    expect(stages[1]).not.toMatch(/g\+\+|apt-get|npm ci/);
    expect(stages[1]).toContain('USER 1000:1000');
    expect(file(files, '.dockerignore')).toContain('node_modules');
  });

  it('refuses a run folder outside the volume and unsafe values, naming the option', () => {
    expect(() => planFiles({ ...BASE, runDir: '/data/exp' })).toThrow('must be under /work/ for k8s');
    expect(() => planFiles({ ...BASE, runDir: 'runs/exp' })).toThrow('must be an absolute path');
    expect(() => planFiles({ ...BASE, modelId: 'a b' })).toThrow('must be letters, digits');
    expect(() => planFiles({ ...BASE, secret: 'Key_1' })).toThrow('must be a Kubernetes name');
  });
});

describe('shard plan --backend slurm', () => {
  const files = planFiles(SLURM);

  it('an array with --requeue, memory, partition and account; an afterany merge; no npx', () => {
    const shard = file(files, 'shard.sbatch');
    for (const line of ['#SBATCH --requeue', '#SBATCH --mem=4G', '#SBATCH --partition=cpu', '#SBATCH --account=proj42', '#SBATCH --signal=TERM@120']) expect(shard).toContain(line);
    expect(file(files, 'submit.sh')).toContain('--dependency=afterany:');
    expect(file(files, 'merge.sbatch')).toContain('missing shards after');
    for (const f of files) expect(f.text).not.toMatch(/\bnpx\b/);
    expect(file(files, 'ember.def')).toMatch(/^Stage: build$[^]*^Stage: final$/m);
  });

  it('every script passes bash -n and shellcheck (k8s run.sh too, as sh)', () => {
    const scripts = [...files.filter((f) => f.executable), ...planFiles(BASE).filter((f) => f.name === 'run.sh')];
    expect(scripts.map((f) => f.name).sort()).toEqual(['merge.sbatch', 'run.sh', 'shard.sbatch', 'submit.sh']);
    for (const script of scripts) {
      const path = join(scratch, script.name);
      writeFileSync(path, script.text);
      const shell = script.text.startsWith('#!/bin/sh') ? 'sh' : 'bash';
      const syntax = spawnSync(shell, ['-n', path], { encoding: 'utf8' });
      expect(syntax.stderr, script.name).toBe('');
      expect(syntax.status).toBe(0);
      const lint = spawnSync('shellcheck', ['--severity=style', path], { encoding: 'utf8' });
      expect(lint.error, 'shellcheck is installed (apt-get install shellcheck)').toBeUndefined();
      expect(lint.stdout, script.name).toBe('');
      expect(lint.status).toBe(0);
    }
  });
});
