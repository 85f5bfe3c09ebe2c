/**
 * The scenario parser (environment.md section 2, schema_version 1.0).
 *
 * Strict: unknown keys, missing keys, wrong types and out-of-range values
 * are errors, and every error is a ValidationError reading
 * `${source}: ${field}: ${problem}` (the root object is `$`), so that a
 * scenario author can find the field from the message alone. Checks run in
 * a fixed order (structure field by field, then cross-field consistency),
 * so a file with several problems always reports the same one.
 */

import { ValidationError } from '../errors.js';
import { sha256Hex } from '../hash.js';
import { canonicalJson, type JsonObject, type JsonValue } from '../json/canonical.js';
import { parseJsonInput } from '../json/strict-parse.js';
import { EXIT, FLOOR, WALL, gridFromMap, type Grid } from './grid.js';
import { SPREAD_PROBABILITY } from './fire.js';
import { findZoneShortfall, staticEligibility } from './people.js';
import type { Ignition, Placement, Scenario } from './scenario-types.js';
import { parseSeed } from './seed.js';

export const SCENARIO_SCHEMA_VERSION = '1.0';
export const SCENARIO_ID = /^[a-z0-9-]{1,64}$/;
export const FAMILY_NAME = /^[a-z0-9_]{1,64}$/;
export const MAX_GRID_SIDE = 256;
export const MAX_STEPS = 10_000;
export const MAX_POPULATION = 10_000;
export const MAX_TITLE_LENGTH = 200;

const ROOT_KEYS = ['schema_version', 'scenario_id', 'title', 'families', 'map', 'people', 'fire', 'max_steps', 'development_seed'];
// "Printable": no control characters, no lone surrogates, no line or
// paragraph separators. Categories whose membership changes between Unicode
// versions (unassigned code points) are deliberately not tested, so that
// every Node version accepts the same titles.
const NOT_PRINTABLE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]/u;

/** Parses and validates scenario file text; `source` (the file name) prefixes every error. */
export function parseScenarioText(text: string, source: string): Scenario {
  const value = parseJsonInput(text, source);
  return validateScenario(value, source);
}

/** Validates a parsed scenario value and builds the library form. */
export function validateScenario(value: JsonValue, source: string): Scenario {
  return new ScenarioReader(source).read(value);
}

type Candidates = { cells: number[]; count: number; cellPaths: string[] };

class ScenarioReader {
  constructor(private readonly source: string) {}

  fail(path: string, problem: string): never {
    throw new ValidationError(`${this.source}: ${path}: ${problem}`);
  }

  read(value: JsonValue): Scenario {
    if (!isObject(value)) this.fail('$', `must be a JSON object, got ${describe(value)}`);
    // The version first: a file of another schema gets that message, not a list of unknown fields.
    if ('schema_version' in value && value['schema_version'] !== SCENARIO_SCHEMA_VERSION) {
      this.fail('schema_version', `must be ${JSON.stringify(SCENARIO_SCHEMA_VERSION)}, got ${show(value['schema_version'])}`);
    }
    const root = this.object(value, '$', ROOT_KEYS);
    const scenarioId = this.matching(root['scenario_id']!, 'scenario_id', SCENARIO_ID, '[a-z0-9-]{1,64}');
    const title = this.title(root['title']!);
    const families = this.families(root['families']!);
    const grid = this.map(root['map']!);
    const maxSteps = this.integer(root['max_steps']!, 'max_steps', 1, MAX_STEPS);
    const developmentSeed = this.seed(root['development_seed']!);
    const people = this.people(root['people']!, grid);
    const fire = this.object(root['fire']!, 'fire', ['ignitions', 'spread_probability'], ['ignition_candidates']);
    const ignitions = this.ignitions(fire['ignitions']!, grid, maxSteps);
    const candidates = this.candidates(fire['ignition_candidates'], grid);
    const spread = fire['spread_probability']!;
    if (typeof spread !== 'string' || !SPREAD_PROBABILITY.test(spread)) {
      this.fail('fire.spread_probability', 'must be a decimal string in [0, 1]');
    }
    this.checkFireCells(grid, ignitions, candidates);
    const population = this.checkPeople(grid, people, ignitions, candidates);
    return {
      scenarioId,
      title,
      families,
      grid,
      placements: people.placements,
      ignitions: ignitions.list,
      candidateCells: candidates.cells,
      candidateCount: candidates.count,
      spreadProbability: spread,
      maxSteps,
      developmentSeed,
      population,
      hash: sha256Hex(canonicalJson(root)),
      json: root,
    };
  }

  // ---- structure ----

  /** An object with exactly the `required` keys plus any of `optional`. */
  object(value: JsonValue | undefined, path: string, required: readonly string[], optional: readonly string[] = []): JsonObject {
    if (!isObject(value)) this.fail(path, `must be an object, got ${describe(value)}`);
    const unknown = Object.keys(value).filter((k) => !required.includes(k) && !optional.includes(k)).sort();
    if (unknown.length > 0) this.fail(child(path, unknown[0]!), 'unknown field');
    for (const key of required) if (!(key in value)) this.fail(child(path, key), 'missing required field');
    return value;
  }

  integer(value: JsonValue, path: string, min: number, max: number): number {
    if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) {
      this.fail(path, `must be an integer in [${min}, ${max}], got ${show(value)}`);
    }
    return value as number;
  }

  array(value: JsonValue, path: string, what: string): JsonValue[] {
    if (!Array.isArray(value)) this.fail(path, `must be ${what}, got ${describe(value)}`);
    return value;
  }

  matching(value: JsonValue, path: string, pattern: RegExp, shape: string): string {
    if (typeof value !== 'string' || !pattern.test(value)) this.fail(path, `must be a string matching ${shape}, got ${show(value)}`);
    return value;
  }

  title(value: JsonValue): string {
    if (typeof value !== 'string' || value.length === 0) this.fail('title', `must be a non-empty string, got ${show(value)}`);
    const length = [...value].length;
    if (length > MAX_TITLE_LENGTH) this.fail('title', `has ${length} characters, at most ${MAX_TITLE_LENGTH} are allowed`);
    if (NOT_PRINTABLE.test(value)) this.fail('title', 'must be printable (no control characters, line separators or lone surrogates)');
    return value;
  }

  families(value: JsonValue): string[] {
    const list = this.array(value, 'families', 'a non-empty array of family names');
    if (list.length === 0) this.fail('families', 'must be a non-empty array of family names');
    const seen = new Map<string, number>();
    return list.map((item, i) => {
      const name = this.matching(item, `families[${i}]`, FAMILY_NAME, '[a-z0-9_]{1,64}');
      const first = seen.get(name);
      if (first !== undefined) this.fail(`families[${i}]`, `duplicates families[${first}]`);
      seen.set(name, i);
      return name;
    });
  }

  map(value: JsonValue): Grid {
    const rows = this.array(value, 'map', `an array of 1 to ${MAX_GRID_SIDE} strings`);
    if (rows.length < 1 || rows.length > MAX_GRID_SIDE) this.fail('map', `has ${rows.length} rows, must have 1 to ${MAX_GRID_SIDE}`);
    const lines = rows.map((row, r) => {
      if (typeof row !== 'string') this.fail(`map[${r}]`, `must be a string, got ${describe(row)}`);
      return row;
    });
    const width = lines[0]!.length;
    if (width < 1 || width > MAX_GRID_SIDE) this.fail('map[0]', `has ${width} characters, must have 1 to ${MAX_GRID_SIDE}`);
    lines.forEach((line, r) => {
      if (line.length !== width) this.fail(`map[${r}]`, `has ${line.length} characters, map[0] has ${width}`);
      const bad = /[^#.E]/.exec(line);
      if (bad) this.fail(`map[${r}]`, `invalid character ${JSON.stringify(bad[0])} at column ${bad.index} (allowed: '#', '.', 'E')`);
    });
    const grid = gridFromMap(lines);
    if (grid.exits.length === 0) this.fail('map', "has no exit cell ('E')");
    return grid;
  }

  seed(value: JsonValue): string {
    if (typeof value !== 'string') this.fail('development_seed', `must be a decimal string, got ${describe(value)}`);
    return parseSeed(value, `${this.source}: development_seed`);
  }

  /** `[row, col]` inside the grid, as a row-major index. */
  cell(value: JsonValue, path: string, grid: Grid): number {
    if (!Array.isArray(value) || value.length !== 2 || !value.every((x) => Number.isSafeInteger(x))) {
      this.fail(path, `must be [row, col] (2 integers), got ${show(value)}`);
    }
    const [r, c] = value as [number, number];
    if (r < 0 || r >= grid.rows || c < 0 || c >= grid.cols) this.fail(path, `${pair(r, c)} is outside the ${grid.rows}x${grid.cols} grid`);
    return r * grid.cols + c;
  }

  people(value: JsonValue, grid: Grid): { placements: Placement[]; paths: string[] } {
    const list = this.array(value, 'people', 'an array of placements');
    const paths: string[] = [];
    const placements = list.map((item, i): Placement => {
      const path = `people[${i}]`;
      paths.push(path);
      if (!isObject(item)) this.fail(path, `must be an object, got ${describe(item)}`);
      if ('cell' in item && 'zone' in item) this.fail(path, 'must have exactly one of "cell" and "zone"');
      if ('cell' in item) {
        this.object(item, path, ['cell']);
        return { kind: 'cell', cell: this.cell(item['cell']!, `${path}.cell`, grid) };
      }
      if (!('zone' in item)) this.fail(path, 'must be {"cell": [r, c]} or {"zone": [r0, c0, r1, c1], "count": n}');
      this.object(item, path, ['zone', 'count']);
      const zone = item['zone']!;
      if (!Array.isArray(zone) || zone.length !== 4 || !zone.every((x) => Number.isSafeInteger(x))) {
        this.fail(`${path}.zone`, `must be [r0, c0, r1, c1] (4 integers), got ${show(zone)}`);
      }
      const [r0, c0, r1, c1] = zone as [number, number, number, number];
      if (r0 > r1 || c0 > c1) this.fail(`${path}.zone`, `${show(zone)} must have r0 <= r1 and c0 <= c1`);
      if (r0 < 0 || c0 < 0 || r1 >= grid.rows || c1 >= grid.cols) {
        this.fail(`${path}.zone`, `${show(zone)} is outside the ${grid.rows}x${grid.cols} grid`);
      }
      const count = this.integer(item['count']!, `${path}.count`, 1, MAX_POPULATION);
      return { kind: 'zone', r0, c0, r1, c1, count };
    });
    return { placements, paths };
  }

  ignitions(value: JsonValue, grid: Grid, maxSteps: number): { list: Ignition[]; paths: string[] } {
    const items = this.array(value, 'fire.ignitions', 'an array of {"cell": [r, c], "step": s}');
    const paths: string[] = [];
    const list = items.map((item, i): Ignition => {
      const path = `fire.ignitions[${i}]`;
      paths.push(`${path}.cell`);
      const obj = this.object(item, path, ['cell', 'step']);
      return { cell: this.cell(obj['cell']!, `${path}.cell`, grid), step: this.integer(obj['step']!, `${path}.step`, 0, maxSteps) };
    });
    return { list, paths };
  }

  candidates(value: JsonValue | undefined, grid: Grid): Candidates {
    if (value === undefined) return { cells: [], count: 0, cellPaths: [] };
    const path = 'fire.ignition_candidates';
    const obj = this.object(value, path, ['cells', 'count']);
    const items = this.array(obj['cells']!, `${path}.cells`, 'a non-empty array of [row, col] cells');
    if (items.length === 0) this.fail(`${path}.cells`, 'must be a non-empty array of [row, col] cells');
    const cellPaths = items.map((_, i) => `${path}.cells[${i}]`);
    const cells = items.map((item, i) => this.cell(item, cellPaths[i]!, grid));
    const count = this.integer(obj['count']!, `${path}.count`, 1, grid.kinds.length);
    if (count > cells.length) this.fail(`${path}.count`, `${count} exceeds the ${cells.length} candidate cells`);
    return { cells, count, cellPaths };
  }

  // ---- consistency ----

  checkFireCells(grid: Grid, ignitions: { list: Ignition[]; paths: string[] }, candidates: Candidates): void {
    const check = (cells: readonly number[], paths: readonly string[]): void => {
      const firstAt = new Map<number, number>();
      cells.forEach((cell, i) => {
        if (grid.kinds[cell] === WALL) this.fail(paths[i]!, `${cellText(grid, cell)} is a wall, must be a floor or exit cell`);
        const first = firstAt.get(cell);
        if (first !== undefined) this.fail(paths[i]!, `${cellText(grid, cell)} duplicates ${paths[first]}`);
        firstAt.set(cell, i);
      });
    };
    check(
      ignitions.list.map((x) => x.cell),
      ignitions.paths,
    );
    check(candidates.cells, candidates.cellPaths);
  }

  /** Explicit cells, population and zone capacity; returns the population. */
  checkPeople(
    grid: Grid,
    people: { placements: Placement[]; paths: string[] },
    ignitions: { list: Ignition[]; paths: string[] },
    candidates: Candidates,
  ): number {
    const stepZero = new Map<number, string>();
    ignitions.list.forEach((x, i) => {
      if (x.step === 0) stepZero.set(x.cell, ignitions.paths[i]!.replace(/\.cell$/, ''));
    });
    const candidateAt = new Map<number, string>();
    candidates.cells.forEach((cell, i) => candidateAt.set(cell, candidates.cellPaths[i]!));
    const personAt = new Map<number, string>();
    let population = 0;
    people.placements.forEach((placement, i) => {
      const path = `${people.paths[i]}.${placement.kind}`;
      switch (placement.kind) {
        case 'cell': {
          const { cell } = placement;
          const where = cellText(grid, cell);
          if (grid.kinds[cell] !== FLOOR) {
            this.fail(path, `${where} is ${grid.kinds[cell] === EXIT ? 'an exit' : 'a wall'}, must be a floor cell`);
          }
          const other = personAt.get(cell);
          if (other !== undefined) this.fail(path, `${where} duplicates ${other}`);
          personAt.set(cell, path);
          const ignition = stepZero.get(cell);
          if (ignition !== undefined) this.fail(path, `${where} is a step-0 ignition (${ignition})`);
          const candidate = candidateAt.get(cell);
          if (candidate !== undefined) this.fail(path, `${where} is an ignition candidate (${candidate})`);
          population += 1;
          return;
        }
        case 'zone':
          population += placement.count;
          return;
      }
    });
    if (population < 1 || population > MAX_POPULATION) {
      this.fail('people', `population ${population} is outside [1, ${MAX_POPULATION}]`);
    }
    const eligible = staticEligibility(grid, people.placements, ignitions.list, candidates.cells);
    const shortfall = findZoneShortfall(grid, people.placements, eligible);
    if (shortfall !== null) {
      const { index, eligible: own, reservable, count } = shortfall;
      const problem =
        reservable === 0
          ? `${own} eligible cells for count ${count}`
          : `${own} eligible cells, of which earlier overlapping zones may take ${reservable}, for count ${count}`;
      this.fail(`people[${index}].zone`, problem);
    }
    return population;
  }
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: JsonValue | undefined): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return 'nothing';
  }
}

/** A short rendering of a value for a message: scalars and short arrays as JSON, else their type. */
function show(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'object' && value !== null) {
    // Only short arrays of integers (cells, zones) are worth quoting.
    const quotable = Array.isArray(value) && value.length <= 8 && value.every((x) => Number.isSafeInteger(x));
    return quotable ? canonicalJson(value).replaceAll(',', ', ') : describe(value);
  }
  if (typeof value === 'number' && !Number.isSafeInteger(value)) return 'a non-integer number';
  const text = canonicalJson(value);
  return text.length <= 70 ? text : `${describe(value)} of ${String(value).length} characters`;
}

function child(path: string, key: string): string {
  return path === '$' ? key : `${path}.${key}`;
}

function pair(r: number, c: number): string {
  return `[${r}, ${c}]`;
}

function cellText(grid: Grid, cell: number): string {
  return pair(Math.floor(cell / grid.cols), cell % grid.cols);
}
