/**
 * The one place where service fields become command-line flags. Services
 * name the input an error is about by its field (`jobs: must be an integer
 * from 1 to 8`, see ErrorOptions in src/core/errors.ts), so the app can show
 * it beside its control; the CLI says `--jobs: must be an integer from 1 to 8`.
 */

import type { EmberError } from '../core/errors.js';

/** Service field -> CLI flag. */
export const FIELD_FLAGS: Readonly<Record<string, string>> = {
  jobs: '--jobs',
  modelId: '--model-id',
  actTimeoutMs: '--act-timeout-ms',
  agentPaths: '--agent-path',
  seeds: '--seed',
  resamples: '--resamples',
  out: '--out',
  failures: '--failures',
  reports: '--report',
  outDir: '--out',
  shard: '--shard',
  batchSeed: '--batch-seed',
  passphrase: '--passphrase-env',
  signedAt: '--signed-at',
  trust: '--trust',
};

/** The error's message with its leading `field:` written as the flag (unchanged without a known field). */
export function cliMessage(error: EmberError): string {
  const field = error.field;
  if (field === undefined) return error.message;
  const flag = FIELD_FLAGS[field];
  const prefix = `${field}:`;
  if (flag === undefined || !error.message.startsWith(prefix)) return error.message;
  return flag + ':' + error.message.slice(prefix.length);
}
