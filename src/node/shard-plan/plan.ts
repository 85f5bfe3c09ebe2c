/**
 * `shard plan` (docs/sharding.md): the files that run one sharded
 * evaluation on a cluster, generated, never hand-copied. Pure text from the
 * options: the same options give the same bytes (no clock, no random), so
 * a plan can be committed and diffed.
 *
 * The names of one run's Jobs carry the run folder's name and a hash of its
 * path, so two runs never collide and a rerun of the same run meets its own
 * Jobs (kubectl apply of the same spec is a no-op).
 */

import { fieldError } from '../../core/errors.js';
import { runSettingsText, type RunSettings } from '../eval/run-dir.js';
import { containerFiles } from './container.js';
import { kubernetesFiles } from './k8s.js';
import { slurmFiles } from './slurm.js';
import { K8S_MOUNT, type PlanFile, type PlanOptions } from './plan-shared.js';

export { API_KEY_ENV, EMBERBENCH_BIN, K8S_MOUNT, runName, type Backend, type PlanFile, type PlanOptions } from './plan-shared.js';

export const MAX_PLAN_SHARDS = 1000;

const SAFE_PATH = /^\/[A-Za-z0-9._/-]*[A-Za-z0-9._-]$/;
const SAFE_WORD = /^[A-Za-z0-9._:/@+-]+$/;
const DNS_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Refuses what the files could not carry safely (exit 2, naming the flag's field). */
export function checkPlanOptions(o: PlanOptions): void {
  if (!Number.isSafeInteger(o.shards) || o.shards < 1 || o.shards > MAX_PLAN_SHARDS) throw fieldError('shards', `must be an integer from 1 to ${MAX_PLAN_SHARDS}`);
  if (!SAFE_PATH.test(o.runDir) || o.runDir.split('/').some((p) => p === '..' || p === '.')) {
    throw fieldError('runDir', `must be an absolute path of letters, digits and ._-/ (the run folder as the jobs see it), not ${JSON.stringify(o.runDir)}`);
  }
  if (o.backend === 'k8s' && !o.runDir.startsWith(`${K8S_MOUNT}/`)) {
    throw fieldError('runDir', `must be under ${K8S_MOUNT}/ for k8s (the shared volume is mounted there in every pod), e.g. ${K8S_MOUNT}/runs/exp-1`);
  }
  for (const [field, value] of [['image', o.image], ['modelId', o.modelId], ['agent', o.agent], ['partition', o.partition], ['account', o.account]] as const) {
    if (!SAFE_WORD.test(value)) throw fieldError(field, `must be letters, digits and ._:/@+- only, not ${JSON.stringify(value)}`);
  }
  for (const [field, value] of [['storageClass', o.storageClass], ['secret', o.secret]] as const) {
    if (value !== null && !DNS_NAME.test(value)) throw fieldError(field, `must be a Kubernetes name (lowercase letters, digits and -), not ${JSON.stringify(value)}`);
  }
  if (o.agentConfig !== null && !/^[A-Za-z0-9._-]+$/.test(o.agentConfig)) throw fieldError('agentConfig', 'must be a file name inside the run folder (copy the file there)');
  if (!/^[0-9]+$/.test(o.batchSeed)) throw fieldError('batchSeed', 'must be a decimal integer');
  for (const seed of o.seeds) if (!/^[0-9]+(\.\.[0-9]+)?$/.test(seed)) throw fieldError('seed', `must be N or A..B, not ${JSON.stringify(seed)}`);
}

export function planSettings(o: PlanOptions): RunSettings {
  return { shards: o.shards, generatedSuite: 'batch', manifest: 'manifest.json', modelId: o.modelId, agent: o.agent, agentConfig: o.agentConfig, jobs: o.jobs };
}

/** Every file of the plan, in writing order. */
export function planFiles(o: PlanOptions): PlanFile[] {
  checkPlanOptions(o);
  const settings = runSettingsText(planSettings(o));
  const files = [...containerFiles(o), { name: 'run.json', text: settings, executable: false }, ...(o.backend === 'k8s' ? kubernetesFiles(o, settings) : slurmFiles(o))];
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
