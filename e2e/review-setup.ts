/**
 * Fills a fresh archive for the review e2e through the running server's
 * own API (the Bearer token the URL carries), as a script would: a manifest
 * of seed 0 of the public suite, its environment pack, and two baselines
 * evaluated against that pack (two official trials of two models), and
 * optionally a third model run on the suite alone (an unofficial trial).
 */

import { createApi, type WorkbenchApi } from '../src/shared/api/client.js';
import type { ApiResult } from '../src/shared/api/result.js';
import { createHttpTransport } from '../src/renderer/transport/http.js';
import type { ServeProcess } from './server.js';

export function apiOf(server: ServeProcess): WorkbenchApi {
  const token = new URL(server.url).searchParams.get('token')!;
  return createApi(createHttpTransport(server.origin, { authorization: `Bearer ${token}` }));
}

export function must<T>(result: ApiResult<T>, what: string): T {
  if (!result.ok) throw new Error(`${what}: ${result.error.kind}: ${result.error.message}`);
  return result.value;
}

export interface ReviewFixture {
  readonly packId: string;
  readonly trialA: number;
  readonly trialB: number;
  readonly modelA: string;
  readonly modelB: string;
  readonly unofficialTrial: number | null;
}

export async function waitForTrial(api: WorkbenchApi, trialId: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const detail = must(await api['trials.get']({ trialId }), `trial ${trialId}`);
    if (detail.trial.status !== 'running' && detail.report !== null) return;
    if (detail.trial.status !== 'running') throw new Error(`trial ${trialId} ended ${detail.trial.status} without a report`);
    if (Date.now() > until) throw new Error(`trial ${trialId} still running after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

export async function fillArchive(api: WorkbenchApi, models: readonly [id: string, agent: string][], unofficial?: readonly [id: string, agent: string]): Promise<ReviewFixture> {
  const suites = must(await api['suites.list']({}), 'suites.list');
  const suite = suites.find((s) => s.source === 'public');
  if (suite === undefined) throw new Error(`no public suite among ${suites.map((s) => s.suiteId).join(', ')}`);
  const manifest = must(await api['manifests.create']({ suiteHash: suite.suiteHash, seeds: ['0'] }), 'manifests.create');
  const pack = must(await api['packs.build']({ manifestHash: manifest.manifestHash }), 'packs.build');
  const trials: number[] = [];
  for (const [modelId, agent] of models) {
    const { trialId } = must(await api['runs.start']({ manifestHash: manifest.manifestHash, packDigest: pack.packDigest, agent: { kind: 'builtin', id: agent }, modelId, jobs: 2 }), `runs.start ${modelId}`);
    await waitForTrial(api, trialId, 120_000);
    trials.push(trialId);
  }
  let unofficialTrial: number | null = null;
  if (unofficial !== undefined) {
    const [modelId, agent] = unofficial;
    unofficialTrial = must(await api['runs.start']({ manifestHash: manifest.manifestHash, agent: { kind: 'builtin', id: agent }, modelId, jobs: 2 }), `runs.start ${modelId}`).trialId;
    await waitForTrial(api, unofficialTrial, 120_000);
  }
  return { packId: pack.packId, trialA: trials[0]!, trialB: trials[1]!, modelA: models[0]![0], modelB: models[1]![0], unofficialTrial };
}
