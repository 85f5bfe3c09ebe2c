/**
 * The scenario generator (generator_version 1.0, evaluation.md section 9):
 * a configuration and a batch seed give a batch of scenarios, several per
 * family, as file texts. Pure and deterministic: every draw comes from one
 * xoshiro128** stream per scenario, keyed by SHA-256 of the batch seed, the
 * scenario's family entry of the configuration and its number, so the same
 * inputs give byte-identical files on every machine, and adding a family to
 * a configuration (or renaming the suite) does not change the scenarios of
 * the other families.
 *
 * Every scenario is built, then parsed by the strict scenario parser; a
 * configuration whose draw cannot give a valid scenario is refused with the
 * configuration field at fault.
 */

import { ValidationError, fieldError } from '../errors.js';
import { sha256Bytes } from '../hash.js';
import { canonicalJson, indentedJson, type JsonObject, type JsonValue } from '../json/canonical.js';
import { staticEligibility } from '../world/people.js';
import { Xoshiro128ss } from '../world/rng.js';
import { validateScenario } from '../world/scenario.js';
import type { Scenario } from '../world/scenario-types.js';
import { isSeed } from '../world/seed.js';
import { buildSuiteManifest } from '../world/suite.js';
import { FLOOR, gridFromMap } from '../world/grid.js';
import { between, type Cell, type Rect } from './canvas.js';
import { GENERATOR_CONFIG_VERSION, GENERATOR_VERSION, permilleText, type GeneratorConfig } from './config.js';
import { drawLayout } from './kinds.js';
import type { Layout } from './layout.js';

export interface GeneratedScenario {
  readonly file: string;
  readonly family: string;
  /** The file text: 2-space indented canonical JSON plus one LF. */
  readonly text: string;
  readonly scenario: Scenario;
}

export interface GeneratedBatch {
  /** `gen-` and 16 hex digits of the batch identity (versions, configuration hash, batch seed). */
  readonly batchId: string;
  readonly batchSeed: string;
  readonly scenarios: readonly GeneratedScenario[];
  /** The suite manifest file text (manifest.json of suite/). */
  readonly suiteManifestText: string;
}

/** The batch ID: a function of the generator versions, the configuration hash and the batch seed. */
export function batchIdOf(configHash: string, batchSeed: string): string {
  const identity = canonicalJson({
    batch_seed: batchSeed,
    config_hash: configHash,
    generator_config_version: GENERATOR_CONFIG_VERSION,
    generator_version: GENERATOR_VERSION,
  });
  return `gen-${[...sha256Bytes(identity).subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The scenario ID of the n-th (1-based) scenario of a family: `multi-room-office-003`. */
export function generatedScenarioId(family: string, n: number): string {
  return `${family.replaceAll('_', '-')}-${String(n).padStart(3, '0')}`;
}

export function generateBatch(config: GeneratorConfig, batchSeedText: string): GeneratedBatch {
  if (!isSeed(batchSeedText)) throw fieldError('batchSeed', 'must be a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)');
  const batchSeed = batchSeedText;
  const scenarios: GeneratedScenario[] = [];
  config.families.forEach((family, i) => {
    for (let n = 1; n <= family.count; n++) scenarios.push(generateScenario(config, i, batchSeed, n));
  });
  const suiteManifestText = buildSuiteManifest({
    suiteId: config.suiteId,
    suiteVersion: config.suiteVersion,
    visibility: config.visibility,
    seedRole: config.seedRole,
    scenarios: scenarios.map((s) => ({ scenario: s.scenario })),
  });
  return { batchId: batchIdOf(config.hash, batchSeed), batchSeed, scenarios, suiteManifestText };
}

/** The stream of one scenario: keyed by the batch seed, its family entry (as configured) and its number. */
function scenarioStream(batchSeed: string, familyEntry: JsonValue, n: number): Xoshiro128ss {
  const key = canonicalJson({ batch_seed: batchSeed, family_config: familyEntry, generator_version: GENERATOR_VERSION, scenario: n, stream: 'generator' });
  return Xoshiro128ss.fromKey(sha256Bytes(key));
}

function generateScenario(config: GeneratorConfig, index: number, batchSeed: string, n: number): GeneratedScenario {
  const family = config.families[index]!;
  const path = `families[${index}]`;
  const entries = config.json['families'] as JsonValue[];
  const rng = scenarioStream(batchSeed, entries[index]!, n);
  const rows = between(rng, ...family.rows);
  const cols = between(rng, ...family.cols);
  const people = between(rng, ...family.people);
  const spread = permilleText(between(rng, ...family.spreadPermille));
  const maxSteps = between(rng, ...family.maxSteps);
  const layout = mirror(drawLayout(family.family, rng, { rows, cols, maxSteps }), rng.uniform(2) === 1, rng.uniform(2) === 1, rows, cols);
  const scenarioId = generatedScenarioId(family.family, n);
  const stranded = unreachableZoneCell(layout);
  if (stranded !== null) {
    // A layout bug, never a configuration problem: every floor cell of a zone must have a way out.
    throw new ValidationError(`${path}: generated scenario ${scenarioId} has a person cell [${stranded.join(', ')}] with no path to an exit`);
  }
  const counts = spreadPeople(layout, people);
  if (counts === null) {
    const free = freeCells(layout).reduce((a, b) => a + b, 0);
    throw new ValidationError(
      `${path}.people: scenario ${scenarioId} (${rows}x${cols}) drew ${people} people but its layout has ${free} free cells for them; lower people or raise rows/cols`,
    );
  }
  const fire: JsonObject = {
    ignitions: layout.ignitions.map((x) => ({ cell: [...x.cell], step: x.step })),
    spread_probability: spread,
  };
  if (layout.candidates !== null) fire['ignition_candidates'] = { cells: layout.candidates.cells.map((c) => [...c]), count: layout.candidates.count };
  const value: JsonObject = {
    schema_version: '1.0',
    scenario_id: scenarioId,
    title: `Generated ${family.family} scenario ${n} of ${family.count} (generator ${GENERATOR_VERSION})`,
    families: [family.family],
    map: [...layout.map],
    people: layout.zones.flatMap((zone, z) => (counts[z]! > 0 ? [{ zone: [...zone], count: counts[z]! }] : [])),
    fire,
    max_steps: maxSteps,
    development_seed: '0',
  };
  let scenario: Scenario;
  try {
    scenario = validateScenario(value, `${scenarioId}.json`);
  } catch (error) {
    // A layout bug or a configuration corner the checks above do not foresee: name the family entry.
    if (error instanceof ValidationError) throw new ValidationError(`${path}: cannot produce a valid scenario ${scenarioId}: ${error.message}`);
    throw error;
  }
  return { file: `${scenarioId}.json`, family: family.family, text: indentedJson(scenario.json), scenario };
}

/** Free cells of each zone: floor that is neither a step-0 ignition nor an ignition candidate (zones are disjoint). */
function freeCells(layout: Layout): number[] {
  const grid = gridFromMap(layout.map);
  const index = ([r, c]: Cell): number => r * grid.cols + c;
  const eligible = staticEligibility(
    grid,
    [],
    layout.ignitions.map((x) => ({ cell: index(x.cell), step: x.step })),
    (layout.candidates?.cells ?? []).map(index),
  );
  return layout.zones.map(([r0, c0, r1, c1]) => {
    let free = 0;
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) free += eligible[r * grid.cols + c]!;
    return free;
  });
}

/**
 * Splits `people` over the zones in proportion to their free cells (largest
 * remainder, ties to the earlier zone), never above a zone's free cells;
 * null when they do not fit.
 */
function spreadPeople(layout: Layout, people: number): number[] | null {
  const free = freeCells(layout);
  const total = free.reduce((a, b) => a + b, 0);
  if (people > total) return null;
  const counts = free.map((f) => Math.floor((people * f) / total));
  const order = free.map((f, z) => ({ z, rest: (people * f) % total })).sort((a, b) => b.rest - a.rest || a.z - b.z);
  let left = people - counts.reduce((a, b) => a + b, 0);
  for (const { z } of order) {
    if (left === 0) break;
    if (counts[z]! < free[z]!) {
      counts[z]! += 1;
      left -= 1;
    }
  }
  return counts;
}

/** The layout mirrored top-bottom and/or left-right. */
function mirror(layout: Layout, flipRows: boolean, flipCols: boolean, rows: number, cols: number): Layout {
  if (!flipRows && !flipCols) return layout;
  const r = (x: number): number => (flipRows ? rows - 1 - x : x);
  const c = (x: number): number => (flipCols ? cols - 1 - x : x);
  const cell = ([a, b]: Cell): Cell => [r(a), c(b)];
  const rect = ([r0, c0, r1, c1]: Rect): Rect => [Math.min(r(r0), r(r1)), Math.min(c(c0), c(c1)), Math.max(r(r0), r(r1)), Math.max(c(c0), c(c1))];
  const map = (flipRows ? [...layout.map].reverse() : [...layout.map]).map((line) => (flipCols ? [...line].reverse().join('') : line));
  return {
    map,
    zones: layout.zones.map(rect),
    ignitions: layout.ignitions.map((x) => ({ cell: cell(x.cell), step: x.step })),
    candidates: layout.candidates === null ? null : { cells: layout.candidates.cells.map(cell), count: layout.candidates.count },
  };
}

/** A floor cell of a zone that no exit can be reached from (walking through floor and exits), or null. */
function unreachableZoneCell(layout: Layout): Cell | null {
  const grid = gridFromMap(layout.map);
  const { rows, cols, kinds } = grid;
  const seen = new Uint8Array(kinds.length);
  const queue = [...grid.exits];
  for (const exit of queue) seen[exit] = 1;
  for (let head = 0; head < queue.length; head++) {
    const cell = queue[head]!;
    const r = Math.floor(cell / cols);
    const c = cell % cols;
    for (const [nr, nc] of [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]] as const) {
      if (nr < 0 || nc < 0 || nr >= rows || nc >= cols) continue;
      const next = nr * cols + nc;
      if (seen[next] === 0 && kinds[next] === FLOOR) {
        seen[next] = 1;
        queue.push(next);
      }
    }
  }
  for (const [r0, c0, r1, c1] of layout.zones) {
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) if (kinds[r * cols + c] === FLOOR && seen[r * cols + c] === 0) return [r, c];
  }
  return null;
}
