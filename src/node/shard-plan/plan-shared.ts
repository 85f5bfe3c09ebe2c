/**
 * What the plan (plan.ts) and every backend's files (container.ts, k8s.ts,
 * slurm.ts) share: the options, the names and the file shape. Apart from
 * plan.ts so that the backends, which plan.ts calls, do not import it back.
 */

import { createHash } from 'node:crypto';
import { basename } from 'node:path';

export type Backend = 'k8s' | 'slurm';

export interface PlanOptions {
  readonly backend: Backend;
  readonly shards: number;
  /** The run folder as the jobs see it (absolute; for k8s under /work, where the volume is mounted). */
  readonly runDir: string;
  readonly image: string;
  readonly storageClass: string | null;
  /** The Secret holding the API key (key `api-key`), given to the agent as $EMBER_API_KEY. */
  readonly secret: string | null;
  readonly modelId: string;
  readonly agent: string;
  /** The adapter configuration, a file name inside the run folder, or null. */
  readonly agentConfig: string | null;
  readonly jobs: number;
  readonly batchSeed: string;
  /** --seed values for `evaluation manifest` (a seed or a range A..B each). */
  readonly seeds: readonly string[];
  readonly partition: string;
  readonly account: string;
}

/** Where the shared volume is mounted in every pod. */
export const K8S_MOUNT = '/work';
/** The installed CLI in the image (never npx: it could fetch a registry package of that name). */
export const EMBERBENCH_BIN = 'node /opt/ember/bin/emberbench.js';
/** The environment variable an agent configuration names in api_key_env to read the Secret. */
export const API_KEY_ENV = 'EMBER_API_KEY';

export interface PlanFile {
  /** Relative to the plan folder. */
  readonly name: string;
  readonly text: string;
  readonly executable: boolean;
}

/** `ember-<folder name>-<6 hex of the path>`: at most 30 characters, a DNS label. */
export function runName(runDir: string): string {
  const slug = basename(runDir).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 16).replace(/-+$/, '');
  const hash = createHash('sha256').update(runDir).digest('hex').slice(0, 6);
  return slug === '' ? `ember-${hash}` : `ember-${slug}-${hash}`;
}
