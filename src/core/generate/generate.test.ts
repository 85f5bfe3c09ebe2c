import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselineFactory } from '../baselines/registry.js';
import { sha256Hex } from '../hash.js';
import { canonicalJson } from '../json/canonical.js';
import { EVACUATED } from '../sim/events.js';
import { runEpisode } from '../sim/episode.js';
import { prepareEpisode } from '../world/episode-start.js';
import { parseScenarioText } from '../world/scenario.js';
import { loadSuite } from '../world/suite.js';
import { parseGeneratorConfigText, permilleText, type GeneratorConfig } from './config.js';
import { generateBatch } from './generate.js';
import { FAMILY_KINDS, MIN_SIZE } from './kinds.js';

const GENERATED = join(import.meta.dirname, '..', '..', '..', 'scenarios', 'generated');

function shipped(name: string): GeneratorConfig {
  return parseGeneratorConfigText(readFileSync(join(GENERATED, name), 'utf8'), name);
}

/** A configuration with one family entry changed. */
function configWith(family: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    generator_config_version: '1.0',
    suite_id: 'test-gen',
    suite_version: '1.0',
    visibility: 'public',
    seed_role: 'evaluation',
    families: [{ family: 'fast_spread', count: 2, rows: [10, 12], cols: [12, 14], people: [10, 20], spread_permille: [400, 500], max_steps: [50, 60], ...family }],
    ...extra,
  });
}

describe('the shipped configurations', () => {
  it('default.json has several scenarios of every family kind', () => {
    const config = shipped('default.json');
    expect(config.families.map((f) => f.family)).toEqual([...FAMILY_KINDS]);
    for (const family of config.families) expect(family.count).toBeGreaterThanOrEqual(3);
  });

  it('stress.json reaches the stress scale: 256 x 256 cells, 10,000 people, 1,000 steps', () => {
    const config = shipped('stress.json');
    const batch = generateBatch(config, '1');
    for (const { scenario } of batch.scenarios) {
      expect([scenario.grid.rows, scenario.grid.cols, scenario.population, scenario.maxSteps]).toEqual([256, 256, 10_000, 1000]);
    }
  });
});

describe('generateBatch', () => {
  const config = shipped('default.json');

  it('gives valid scenarios and a loadable suite for many batch seeds', () => {
    for (let seed = 0; seed < 60; seed++) {
      const batch = generateBatch(config, String(seed));
      const files = new Map(batch.scenarios.map((s) => [s.file, s.text]));
      // The suite loader parses every file with the strict scenario parser and checks every pinned hash.
      const suite = loadSuite(batch.suiteManifestText, files, 'batch');
      expect(suite.entries.map((e) => e.primaryFamily)).toEqual(config.families.flatMap((f) => Array<string>(f.count).fill(f.family)));
      for (const s of batch.scenarios) expect(parseScenarioText(s.text, s.file).hash).toBe(s.scenario.hash);
    }
  });

  it('is deterministic: the same configuration and seed give the same bytes, another seed other scenarios', () => {
    const a = generateBatch(config, '42');
    const b = generateBatch(shipped('default.json'), '42');
    expect(canonicalJson(a.scenarios.map((s) => s.text))).toBe(canonicalJson(b.scenarios.map((s) => s.text)));
    expect(a.suiteManifestText).toBe(b.suiteManifestText);
    expect(a.batchId).toBe(b.batchId);
    const c = generateBatch(config, '43');
    expect(c.batchId).not.toBe(a.batchId);
    expect(c.scenarios.filter((s, i) => s.text === a.scenarios[i]!.text)).toEqual([]);
  });

  it('gives the pinned bytes for the default configuration and batch seed 7 (a change here changes every batch made with it)', () => {
    const batch = generateBatch(config, '7');
    expect(config.hash).toBe('1a71093e2a750a0d198c995e9e5fab07378fc0878188e4540cf7866f7e934d7b');
    expect(batch.batchId).toBe('gen-f4e90b830c29b705');
    // The suite manifest pins every scenario's content hash.
    expect(sha256Hex(batch.suiteManifestText)).toBe('2d6e5eaec61c2b122fcdade6de2319fef31f883be95eea7be9ef40b45b865954');
  });

  it("keeps a family's scenarios when another family is added to the configuration", () => {
    const one = parseGeneratorConfigText(configWith({}), 'one');
    const value = JSON.parse(configWith({})) as { families: unknown[] };
    value.families.push({ family: 'central_ignition', count: 1, rows: [10, 12], cols: [12, 14], people: [10, 20], spread_permille: [200, 300], max_steps: [50, 60] });
    const two = parseGeneratorConfigText(JSON.stringify(value), 'two');
    const withTwo = generateBatch(two, '5').scenarios;
    expect(withTwo.map((s) => s.scenario.scenarioId)).toEqual(['fast-spread-001', 'fast-spread-002', 'central-ignition-001']);
    expect(generateBatch(one, '5').scenarios.map((s) => s.text)).toEqual(withTwo.slice(0, 2).map((s) => s.text));
  });

  it('has savable people: a fire-aware baseline evacuates people in nearly every episode', async () => {
    const batch = generateBatch(config, '0');
    const factory = baselineFactory('fire-aware-shortest-path-v1')!;
    let withEvacuees = 0;
    let evacuated = 0;
    let people = 0;
    for (const { scenario } of batch.scenarios) {
      for (const seed of ['0', '1']) {
        const run = await runEpisode(prepareEpisode(scenario, seed), await factory());
        const out = run.outcome.status.filter((s) => s === EVACUATED).length;
        if (out > 0) withEvacuees += 1;
        evacuated += out;
        people += scenario.population;
      }
    }
    expect(withEvacuees).toBeGreaterThanOrEqual(Math.ceil(batch.scenarios.length * 2 * 0.9));
    expect(evacuated / people).toBeGreaterThan(0.5);
  }, 120_000);
});

describe('every family kind at the edges of its ranges', () => {
  it.each(FAMILY_KINDS.map((family) => [family]))('%s gives valid scenarios at its smallest and at long, thin grids', (family) => {
    const min = MIN_SIZE[family];
    const sizes: [number[], number[]][] = [
      [[min.rows, min.rows + 3], [min.cols, min.cols + 3]],
      [[min.rows, min.rows], [240, 256]],
      [[240, 256], [min.cols, min.cols]],
    ];
    for (const [rows, cols] of sizes) {
      const config = parseGeneratorConfigText(configWith({ family, count: 4, rows, cols, people: [1, 3], spread_permille: [0, 1000], max_steps: [1, 10] }), 'edge');
      // generateBatch parses every scenario strictly and checks that every person cell can reach an exit.
      for (let seed = 0; seed < 15; seed++) expect(generateBatch(config, String(seed)).scenarios).toHaveLength(4);
    }
  });
});

describe('configuration errors name the field', () => {
  it.each([
    ['an unknown field', configWith({ colour: 'red' }), 'families[0]: unknown field "colour"'],
    ['a family that does not exist', configWith({ family: 'volcano' }), 'families[0].family: must be one of'],
    ['rows below the family minimum', configWith({ family: 'multi_room_office', rows: [8, 12] }), 'families[0].rows[0]: 8 is below 11 (multi_room_office needs at least 11 rows)'],
    ['a grid above 256', configWith({ cols: [12, 257] }), 'families[0].cols[1]: 257 is above 256'],
    ['min above max', configWith({ people: [20, 10] }), 'families[0].people: min 20 is greater than max 10'],
    ['more people than the smallest interior', configWith({ people: [10, 200] }), 'families[0].people: at most 200 people cannot fit the 80 interior cells of the smallest 10x12 grid'],
    ['a count of 0', configWith({ count: 0 }), 'families[0].count: must be between 1 and 999'],
    ['a spread above 1000 per mille', configWith({ spread_permille: [0, 1001] }), 'families[0].spread_permille[1]: 1001 is above 1000'],
    ['another configuration version', configWith({}, { generator_config_version: '2.0' }), 'generator_config_version: must be one of "1.0"'],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parseGeneratorConfigText(text, 'c.json')).toThrow(`c.json: ${message}`);
  });

  it('refuses a family given twice', () => {
    const value = JSON.parse(configWith({})) as { families: unknown[] };
    value.families.push(value.families[0]);
    expect(() => parseGeneratorConfigText(JSON.stringify(value), 'c.json')).toThrow('c.json: families[1].family: "fast_spread" duplicates families[0]');
  });

  it('refuses at generation a draw whose layout has too few free cells, naming families[i].people', () => {
    // A corridor wing holds far fewer people than the whole interior the parse-time bound allows.
    const config = parseGeneratorConfigText(configWith({ family: 'narrow_corridor_bottleneck', rows: [7, 7], cols: [16, 16], people: [60, 70] }), 'c.json');
    expect(() => generateBatch(config, '0')).toThrow(/^families\[0\]\.people: scenario narrow-corridor-bottleneck-001 \(7x16\) drew \d+ people but its layout has \d+ free cells/);
  });

  it('refuses a malformed batch seed', () => {
    expect(() => generateBatch(shipped('default.json'), '-1')).toThrow(expect.objectContaining({ kind: 'usage', field: 'batchSeed' }) as Error);
  });
});

describe('permilleText', () => {
  it.each([
    [0, '0'],
    [5, '0.005'],
    [150, '0.15'],
    [100, '0.1'],
    [999, '0.999'],
    [1000, '1'],
  ])('%d -> %s', (permille, text) => expect(permilleText(permille)).toBe(text));
});
