// The suite the language-model process tests run: the three-scenario tiny suite of the evaluation tests, not the
// ten-episode public suite. What they check (trial k of K and run totals, the combined score, fail-fast)
// holds for any number of episodes above one, and each episode costs scripted-endpoint round trips.
import { join } from 'node:path';
import type { Handlers } from '../../src/node/services/dispatch.js';
import { ROOT } from '../cli/run-cli.js';

export const SMALL_SUITE = join(ROOT, 'test', 'fixtures', 'suites', 'tiny');

/** The small suite added to the archive the services hold, and its manifest of seed 0 (three episodes). */
export async function smallManifest(handlers: Pick<Handlers, 'suites.add' | 'manifests.create'>): Promise<Awaited<ReturnType<Handlers['manifests.create']>>> {
  const suite = await handlers['suites.add']({ dir: SMALL_SUITE });
  return handlers['manifests.create']({ suiteHash: suite.suiteHash, seeds: ['0'] });
}
