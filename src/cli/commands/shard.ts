/**
 * `emberbench shard plan` (docs/sharding.md): writes the files that run one
 * sharded evaluation on Kubernetes or Slurm (src/node/shard-plan/) into a
 * new folder.
 */

import { chmod, mkdir, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { OutputError, UsageError } from '../../core/errors.js';
import { expandSeedList } from '../../core/eval/seed-list.js';
import { API_KEY_ENV, checkJobs, checkModelId, errnoCode, errnoText, K8S_MOUNT, planFiles, runName, writeOutputFile, type Backend, type PlanOptions } from '../../node/front-door/shard.js';
import type { CommandModule, ParsedArgs, Report } from '../command.js';

const DEFAULT_IMAGE = 'registry.example.com/ember-workbench:0.1.0';

function backendArgument(text: string): Backend {
  if (text === 'k8s' || text === 'slurm') return text;
  throw new UsageError(`--backend: must be k8s or slurm, not ${JSON.stringify(text)}`);
}

function integerArgument(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^[1-9][0-9]{0,6}$/.test(text)) throw new UsageError(`--${flag}: must be a positive integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

function planOptions(args: ParsedArgs): PlanOptions {
  const backend = backendArgument(args.required('backend'));
  const k8sOnly = ['image', 'storage-class', 'secret'].filter((f) => args.value(f) !== undefined);
  const slurmOnly = ['partition', 'account'].filter((f) => args.value(f) !== undefined);
  if (backend === 'slurm' && k8sOnly.length > 0) throw new UsageError(`--${k8sOnly[0]} applies only to --backend k8s`);
  if (backend === 'k8s' && slurmOnly.length > 0) throw new UsageError(`--${slurmOnly[0]} applies only to --backend slurm`);
  const modelId = args.value('model-id') ?? 'congestion-aware-v1';
  checkModelId(modelId);
  const jobs = integerArgument('jobs', args.value('jobs'), 2);
  checkJobs(jobs);
  const seeds = args.list('seed');
  // The same checks as evaluation manifest (ranges, duplicates), before the scripts run it.
  expandSeedList(seeds);
  return {
    backend,
    shards: integerArgument('shards', args.required('shards'), 1),
    runDir: args.required('run-dir'),
    image: args.value('image') ?? DEFAULT_IMAGE,
    storageClass: args.value('storage-class') ?? null,
    secret: args.value('secret') ?? null,
    modelId,
    agent: args.value('agent') ?? 'builtin:congestion-aware-v1',
    agentConfig: args.value('agent-config') ?? null,
    jobs,
    batchSeed: args.value('batch-seed') ?? '7',
    seeds: seeds.length === 0 ? ['0..9'] : seeds,
    partition: args.value('partition') ?? 'CHANGE_ME_PARTITION',
    account: args.value('account') ?? 'CHANGE_ME_ACCOUNT',
  };
}

/** Writes the plan into a new folder `out` (its parent must exist); on failure nothing is left. */
async function writePlan(out: string, options: PlanOptions): Promise<string[]> {
  const files = planFiles(options);
  const parent = dirname(resolve(out));
  try {
    await mkdir(out);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST') throw new OutputError(`output folder exists (shard plan writes a new folder; choose another --out): ${out}`);
    if (code === 'ENOENT') throw new OutputError(`output directory does not exist: ${parent}`);
    throw new OutputError(`cannot create ${out}: ${errnoText(error)}`);
  }
  try {
    for (const file of files) {
      const path = join(out, file.name);
      await writeOutputFile(path, file.text, { force: false, inputs: [] });
      if (file.executable) await chmod(path, 0o755);
    }
  } catch (error) {
    await rm(out, { recursive: true, force: true });
    throw error;
  }
  return files.map((f) => f.name);
}

async function shardPlan(args: ParsedArgs): Promise<Report> {
  const options = planOptions(args);
  const names = await writePlan(args.required('out'), options);
  return {
    backend: options.backend,
    run_name: runName(options.runDir),
    shard_count: options.shards,
    files: names,
    ...(options.backend === 'k8s' && options.image === DEFAULT_IMAGE ? { warning: `--image not given: the Jobs name ${DEFAULT_IMAGE}; build, push and name your own image` } : {}),
  };
}

export const shardModule: CommandModule = {
  group: 'shard',
  summary: 'the files that run a sharded evaluation on a cluster',
  commands: [
    {
      words: ['shard', 'plan'],
      summary: 'write the Kubernetes or Slurm files of one sharded run',
      description:
        `Writes into a new folder --out the files that run one sharded evaluation whose run folder is --run-dir (docs/sharding.md): always a two-stage Dockerfile on Node 24 (non-root), its .dockerignore and run.json (the settings evaluation status reads). --backend k8s adds a ReadWriteMany volume claim, the settings as a ConfigMap, a prepare Job, an Indexed Job of shards (podReplacementPolicy Failed, backoffLimitPerIndex, a podFailurePolicy that ignores disruptions, non-root, resource requests), a status Job and a merge Job, and run.sh, which waits for each Job to succeed or fail and re-submits only the shards evaluation status lists as unfinished; --run-dir must be under ${K8S_MOUNT}/, where the volume is mounted; --secret NAME gives the agent the Secret's key api-key as $${API_KEY_ENV} (name it in the agent configuration's api_key_env). --backend slurm adds an array job (--requeue, --mem, partition and account), a merge that runs afterany and re-submits or names the missing shards, submit.sh and an Apptainer definition. Job names carry the run folder's name and a hash of its path; the same options give the same bytes.`,
      positionals: [],
      options: [
        { name: 'backend', kind: 'value', required: true, valueName: 'BACKEND', description: 'k8s (Kubernetes Jobs) or slurm (a Slurm array)' },
        { name: 'shards', kind: 'value', required: true, valueName: 'N', description: 'the number of shards, 1 to 1000' },
        { name: 'run-dir', kind: 'value', required: true, valueName: 'DIR', description: `the run folder as the jobs see it (absolute; for k8s under ${K8S_MOUNT}/), one per run` },
        { name: 'image', kind: 'value', valueName: 'IMAGE', description: 'k8s: the image every node pulls (REGISTRY/ember-workbench:VERSION built from the Dockerfile)' },
        { name: 'storage-class', kind: 'value', valueName: 'C', description: 'k8s: the storage class of the ReadWriteMany volume (default: the cluster default)' },
        { name: 'secret', kind: 'value', valueName: 'NAME', description: `k8s: the Secret whose key api-key the shard pods get as $${API_KEY_ENV}` },
        { name: 'partition', kind: 'value', valueName: 'P', description: 'slurm: the partition (default a placeholder to replace)' },
        { name: 'account', kind: 'value', valueName: 'A', description: 'slurm: the account (default a placeholder to replace)' },
        { name: 'model-id', kind: 'value', valueName: 'ID', description: 'the model ID of the run (default congestion-aware-v1)' },
        { name: 'agent', kind: 'value', valueName: 'AGENT', description: 'the agent (default builtin:congestion-aware-v1)' },
        { name: 'agent-config', kind: 'value', valueName: 'FILE', description: 'the adapter configuration: a file name inside the run folder (copy it there)' },
        { name: 'jobs', kind: 'value', valueName: 'N', description: 'episodes in parallel per shard; also its CPUs (default 2)' },
        { name: 'batch-seed', kind: 'value', valueName: 'N', description: 'the batch seed of the generated suite the prepare step freezes (default 7)' },
        { name: 'seed', kind: 'repeatable', valueName: 'N', description: 'the manifest seeds, a seed or a range A..B each (default 0..9)' },
        { name: 'out', kind: 'value', required: true, valueName: 'DIR', description: 'the new folder for the files (its parent must exist)' },
      ],
      examples: [
        'emberbench shard plan --backend k8s --shards 8 --run-dir /work/runs/exp-1 --image ghcr.io/acme/ember-workbench:0.1.0 --storage-class nfs-client --out plan-k8s',
        'emberbench shard plan --backend slurm --shards 16 --run-dir /scratch/ember/exp-1 --partition cpu --account proj42 --out plan-slurm',
      ],
      run: (args) => shardPlan(args),
    },
  ],
};
