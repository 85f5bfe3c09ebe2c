/**
 * A suite of large-hall scenarios from the stress generator
 * (scenarios/generated/stress.json, batch seed 1), resized: the benches
 * that need large records (big-result, app-run) write one into a folder.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseGeneratorConfigText } from '../src/core/generate/config.js';
import { generateBatch } from '../src/core/generate/generate.js';
import { SUITE_MANIFEST_FILE } from '../src/core/world/suite.js';
import { ROOT } from './harness.js';

const STRESS_CONFIG = join(ROOT, 'scenarios', 'generated', 'stress.json');

export interface HallSize {
  readonly people: number;
  readonly steps: number;
  readonly scenarios: number;
}

/** Writes the suite (its manifest file and one file per scenario) into the new folder `dir`. */
export function writeStressHallSuite(dir: string, suiteId: string, size: HallSize): void {
  const config = JSON.parse(readFileSync(STRESS_CONFIG, 'utf8')) as { families: Record<string, unknown>[] } & Record<string, unknown>;
  config['suite_id'] = suiteId;
  const hall = config.families.find((f) => f['family'] === 'large_hall_crowd')!;
  config.families = [{ ...hall, count: size.scenarios, people: [size.people, size.people], max_steps: [size.steps, size.steps] }];
  const batch = generateBatch(parseGeneratorConfigText(JSON.stringify(config), STRESS_CONFIG), '1');
  mkdirSync(dir);
  writeFileSync(join(dir, SUITE_MANIFEST_FILE), batch.suiteManifestText);
  for (const s of batch.scenarios) writeFileSync(join(dir, s.file), s.text);
}
