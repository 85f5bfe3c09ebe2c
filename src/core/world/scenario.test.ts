import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import type { JsonObject, JsonValue } from '../json/canonical.js';
import { EXIT, FLOOR, WALL } from './grid.js';
import { parseScenarioText, validateScenario } from './scenario.js';

// The example of environment.md section 2.
const EXAMPLE_TEXT = readFileSync(new URL('../../../test/fixtures/world/example.json', import.meta.url), 'utf8');

/** The example scenario of docs/formats.md, a fresh copy each call. */
function example(): JsonObject {
  return JSON.parse(EXAMPLE_TEXT) as JsonObject;
}

// python3 -c 'import hashlib,json;v=json.load(open("ex.json"));
//   print(hashlib.sha256(json.dumps(v,sort_keys=True,separators=(",",":")).encode()).hexdigest())'
const PY_EXAMPLE_HASH = '6a95f56b7d93a8014b2715c3b132be18181cbea1f99dd9ed72f8eb0881895a7e';
// The same with title "Caf\u00e9 \U0001F525 hall" (ensure_ascii escapes, surrogate pair).
const PY_UNICODE_TITLE_HASH = 'dfac13ba4f7a40ceb7e64a53cd1a3966684ee2ab46c7f1f5ef6b7b638b450cff';

function edited(edit: (v: JsonObject) => void): JsonObject {
  const value = example();
  edit(value);
  return value;
}

function errorOf(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

function messageFor(edit: (v: JsonObject) => void): string {
  return errorOf(() => validateScenario(edited(edit), 'a.json')).message;
}

const fire = (v: JsonObject): JsonObject => v['fire'] as JsonObject;
const people = (v: JsonObject): JsonObject[] => v['people'] as JsonObject[];

describe('parseScenarioText', () => {
  it('parses the specification example into the library form', () => {
    const s = parseScenarioText(JSON.stringify(example(), null, 2), 'a.json');
    expect(s.scenarioId).toBe('v1-pub-01-single-exit-sparse');
    expect(s.grid.rows).toBe(3);
    expect(s.grid.cols).toBe(10);
    expect(s.grid.exits).toEqual([5]);
    expect([s.grid.kinds[0], s.grid.kinds[5], s.grid.kinds[11]]).toEqual([WALL, EXIT, FLOOR]);
    expect(s.placements).toEqual([
      { kind: 'cell', cell: 12 },
      { kind: 'zone', r0: 1, c0: 1, r1: 1, c1: 8, count: 3 },
    ]);
    expect(s.ignitions).toEqual([{ cell: 18, step: 0 }]);
    expect(s.candidateCells).toEqual([15, 16]);
    expect(s.candidateCount).toBe(1);
    expect(s.spreadProbability).toBe('0.25');
    expect(s.maxSteps).toBe(60);
    expect(s.developmentSeed).toBe('0');
    expect(s.population).toBe(4);
    expect(s.families).toEqual(['single_exit_low_density']);
  });

  it('hashes the canonical JSON of the value (Python vector), whatever the file layout', () => {
    const pretty = parseScenarioText(JSON.stringify(example(), null, 4), 'a.json');
    const reordered = Object.fromEntries(Object.entries(example()).reverse());
    const compact = parseScenarioText(JSON.stringify(reordered), 'b.json');
    expect(pretty.hash).toBe(PY_EXAMPLE_HASH);
    expect(compact.hash).toBe(PY_EXAMPLE_HASH);
    const unicode = validateScenario(edited((v) => (v['title'] = 'Caf\u00e9 \u{1F525} hall')), 'a.json');
    expect(unicode.hash).toBe(PY_UNICODE_TITLE_HASH);
  });

  it('treats absent candidates as none', () => {
    const s = validateScenario(edited((v) => delete fire(v)['ignition_candidates']), 'a.json');
    expect(s.candidateCells).toEqual([]);
    expect(s.candidateCount).toBe(0);
  });

  it.each([
    ['{"a":', 'a.json: not valid JSON: unexpected end of input at line 1 column 6'],
    ['{"schema_version":"1.0","schema_version":"1.0"}', 'a.json: not valid JSON: $: duplicate key "schema_version" at line 1 column 25'],
    ['{"max_steps": 60.0}', 'a.json: not valid JSON: $.max_steps: non-canonical number 60.0 (only integers are allowed) at line 1 column 15'],
    ['[]', 'a.json: $: must be a JSON object, got an array'],
  ])('rejects %s', (text, message) => {
    expect(errorOf(() => parseScenarioText(text, 'a.json')).message).toBe(message);
  });
});

describe('validateScenario: structure', () => {
  const cases: [string, (v: JsonObject) => void, string][] = [
    ['an unknown root field', (v) => (v['seed'] = '1'), 'a.json: seed: unknown field'],
    ['an unknown fire field', (v) => (fire(v)['rate'] = 1), 'a.json: fire.rate: unknown field'],
    ['an unknown placement field', (v) => (people(v)[1]!['weight'] = 1), 'a.json: people[1].weight: unknown field'],
    ['an unknown ignition field', (v) => ((fire(v)['ignitions'] as JsonObject[])[0]!['x'] = 1), 'a.json: fire.ignitions[0].x: unknown field'],
    ['a missing title', (v) => delete v['title'], 'a.json: title: missing required field'],
    ['a missing spread probability', (v) => delete fire(v)['spread_probability'], 'a.json: fire.spread_probability: missing required field'],
    ['a missing zone count', (v) => delete people(v)[1]!['count'], 'a.json: people[1].count: missing required field'],
    ['another schema version', (v) => (v['schema_version'] = '1.1'), 'a.json: schema_version: must be "1.0", got "1.1"'],
    ['a numeric schema version', (v) => (v['schema_version'] = 1), 'a.json: schema_version: must be "1.0", got 1'],
    ['an upper-case scenario ID', (v) => (v['scenario_id'] = 'Bad_ID'), 'a.json: scenario_id: must be a string matching [a-z0-9-]{1,64}, got "Bad_ID"'],
    ['a 65-character scenario ID', (v) => (v['scenario_id'] = 'a'.repeat(65)), `a.json: scenario_id: must be a string matching [a-z0-9-]{1,64}, got "${'a'.repeat(65)}"`],
    ['an empty title', (v) => (v['title'] = ''), 'a.json: title: must be a non-empty string, got ""'],
    ['a title of 201 characters', (v) => (v['title'] = 'x'.repeat(201)), 'a.json: title: has 201 characters, at most 200 are allowed'],
    ['a title with a newline', (v) => (v['title'] = 'a\nb'), 'a.json: title: must be printable (no control characters, line separators or lone surrogates)'],
    ['a title with a lone surrogate', (v) => (v['title'] = 'a\ud800'), 'a.json: title: must be printable (no control characters, line separators or lone surrogates)'],
    ['no families', (v) => (v['families'] = []), 'a.json: families: must be a non-empty array of family names'],
    ['families as a string', (v) => (v['families'] = 'x'), 'a.json: families: must be a non-empty array of family names, got a string'],
    ['a bad family name', (v) => (v['families'] = ['ok', 'Not-OK']), 'a.json: families[1]: must be a string matching [a-z0-9_]{1,64}, got "Not-OK"'],
    ['a duplicate family', (v) => (v['families'] = ['a', 'b', 'a']), 'a.json: families[2]: duplicates families[0]'],
    ['an empty map', (v) => (v['map'] = []), 'a.json: map: has 0 rows, must have 1 to 256'],
    ['257 map rows', (v) => (v['map'] = Array(257).fill('E')), 'a.json: map: has 257 rows, must have 1 to 256'],
    ['a 257-column map', (v) => (v['map'] = ['E'.repeat(257)]), 'a.json: map[0]: has 257 characters, must have 1 to 256'],
    ['a numeric map row', (v) => ((v['map'] as JsonValue[])[1] = 5), 'a.json: map[1]: must be a string, got a number'],
    ['rows of unequal length', (v) => ((v['map'] as string[])[2] = '#########'), 'a.json: map[2]: has 9 characters, map[0] has 10'],
    ['a bad map character', (v) => ((v['map'] as string[])[1] = '#...x....#'), 'a.json: map[1]: invalid character "x" at column 4 (allowed: \'#\', \'.\', \'E\')'],
    ['a map without exit', (v) => ((v['map'] as string[])[0] = '##########'), "a.json: map: has no exit cell ('E')"],
    ['max_steps 0', (v) => (v['max_steps'] = 0), 'a.json: max_steps: must be an integer in [1, 10000], got 0'],
    ['max_steps 10001', (v) => (v['max_steps'] = 10001), 'a.json: max_steps: must be an integer in [1, 10000], got 10001'],
    ['max_steps as a string', (v) => (v['max_steps'] = '60'), 'a.json: max_steps: must be an integer in [1, 10000], got "60"'],
    ['a numeric seed', (v) => (v['development_seed'] = 5), 'a.json: development_seed: must be a decimal string, got a number'],
    ['a seed with a leading zero', (v) => (v['development_seed'] = '01'), 'a.json: development_seed: must be a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)'],
    ['a seed of 2^64', (v) => (v['development_seed'] = '18446744073709551616'), 'a.json: development_seed: must be a decimal string in [0, 2^64 - 1] (digits only, no sign, spaces or leading zeros)'],
    ['people as an object', (v) => (v['people'] = {}), 'a.json: people: must be an array of placements, got an object'],
    ['a placement with cell and zone', (v) => (people(v)[0]!['zone'] = [1, 1, 1, 1]), 'a.json: people[0]: must have exactly one of "cell" and "zone"'],
    ['a placement with neither', (v) => (people(v)[0] = { count: 1 }), 'a.json: people[0]: must be {"cell": [r, c]} or {"zone": [r0, c0, r1, c1], "count": n}'],
    ['a cell of three numbers', (v) => (people(v)[0]!['cell'] = [1, 2, 3]), 'a.json: people[0].cell: must be [row, col] (2 integers), got [1, 2, 3]'],
    ['a fractional cell', (v) => (people(v)[0]!['cell'] = [1, 1.5]), 'a.json: people[0].cell: must be [row, col] (2 integers), got an array'],
    ['a cell outside the grid', (v) => (people(v)[0]!['cell'] = [3, 2]), 'a.json: people[0].cell: [3, 2] is outside the 3x10 grid'],
    ['a negative cell', (v) => (people(v)[0]!['cell'] = [1, -1]), 'a.json: people[0].cell: [1, -1] is outside the 3x10 grid'],
    ['a zone of three numbers', (v) => (people(v)[1]!['zone'] = [1, 1, 1]), 'a.json: people[1].zone: must be [r0, c0, r1, c1] (4 integers), got [1, 1, 1]'],
    ['an inverted zone', (v) => (people(v)[1]!['zone'] = [1, 8, 1, 1]), 'a.json: people[1].zone: [1, 8, 1, 1] must have r0 <= r1 and c0 <= c1'],
    ['a zone past the grid', (v) => (people(v)[1]!['zone'] = [1, 1, 1, 10]), 'a.json: people[1].zone: [1, 1, 1, 10] is outside the 3x10 grid'],
    ['a zone count of 0', (v) => (people(v)[1]!['count'] = 0), 'a.json: people[1].count: must be an integer in [1, 10000], got 0'],
    ['an ignition step past the horizon', (v) => ((fire(v)['ignitions'] as JsonObject[])[0]!['step'] = 61), 'a.json: fire.ignitions[0].step: must be an integer in [0, 60], got 61'],
    ['a negative ignition step', (v) => ((fire(v)['ignitions'] as JsonObject[])[0]!['step'] = -1), 'a.json: fire.ignitions[0].step: must be an integer in [0, 60], got -1'],
    ['ignitions as null', (v) => (fire(v)['ignitions'] = null), 'a.json: fire.ignitions: must be an array of {"cell": [r, c], "step": s}, got null'],
    ['no candidate cells', (v) => (fire(v)['ignition_candidates'] = { cells: [], count: 1 }), 'a.json: fire.ignition_candidates.cells: must be a non-empty array of [row, col] cells'],
    ['a candidate count of 0', (v) => ((fire(v)['ignition_candidates'] as JsonObject)['count'] = 0), 'a.json: fire.ignition_candidates.count: must be an integer in [1, 30], got 0'],
    ['more candidates drawn than listed', (v) => ((fire(v)['ignition_candidates'] as JsonObject)['count'] = 3), 'a.json: fire.ignition_candidates.count: 3 exceeds the 2 candidate cells'],
  ];
  it.each(cases)('rejects %s', (_, edit, message) => {
    expect(messageFor(edit)).toBe(message);
  });

  it.each(['0.50', '1.0', '.5', '0.', '01', '-0.5', '0.5 ', '2', '1e-1', ''])('rejects spread probability %j', (p) => {
    expect(messageFor((v) => (fire(v)['spread_probability'] = p))).toBe('a.json: fire.spread_probability: must be a decimal string in [0, 1]');
  });

  it('rejects a numeric spread probability', () => {
    expect(messageFor((v) => (fire(v)['spread_probability'] = 0))).toBe('a.json: fire.spread_probability: must be a decimal string in [0, 1]');
  });

  it.each(['0', '1', '0.5', '0.05', '0.123456789012345678901234567891'])('accepts spread probability %j', (p) => {
    expect(validateScenario(edited((v) => (fire(v)['spread_probability'] = p)), 'a.json').spreadProbability).toBe(p);
  });

  it('accepts the limits: 200 astral characters of title, seed 2^64 - 1, H = 10000, a 256 x 256 map', () => {
    const wide = ['E' + '.'.repeat(255), ...Array<string>(255).fill('.'.repeat(256))];
    const s = validateScenario(
      edited((v) => {
        v['title'] = '\u{1F525}'.repeat(200);
        v['development_seed'] = '18446744073709551615';
        v['max_steps'] = 10000;
        v['map'] = wide;
        v['people'] = [{ zone: [0, 0, 255, 255], count: 10000 }];
      }),
      'a.json',
    );
    expect(s.grid.kinds.length).toBe(65536);
    expect(s.population).toBe(10000);
  });
});

describe('validateScenario: consistency', () => {
  const ignition = (v: JsonObject, i: number): JsonObject => (fire(v)['ignitions'] as JsonObject[])[i]!;
  const cases: [string, (v: JsonObject) => void, string][] = [
    ['an ignition on a wall', (v) => (ignition(v, 0)['cell'] = [0, 0]), 'a.json: fire.ignitions[0].cell: [0, 0] is a wall, must be a floor or exit cell'],
    [
      'a duplicate ignition cell',
      (v) => (fire(v)['ignitions'] = [{ cell: [1, 8], step: 0 }, { cell: [1, 7], step: 3 }, { cell: [1, 8], step: 5 }]),
      'a.json: fire.ignitions[2].cell: [1, 8] duplicates fire.ignitions[0].cell',
    ],
    ['a candidate on a wall', (v) => ((fire(v)['ignition_candidates'] as JsonObject)['cells'] = [[1, 5], [2, 5]]), 'a.json: fire.ignition_candidates.cells[1]: [2, 5] is a wall, must be a floor or exit cell'],
    ['a duplicate candidate', (v) => ((fire(v)['ignition_candidates'] as JsonObject)['cells'] = [[1, 5], [1, 6], [1, 5]]), 'a.json: fire.ignition_candidates.cells[2]: [1, 5] duplicates fire.ignition_candidates.cells[0]'],
    ['a person on a wall', (v) => (people(v)[0]!['cell'] = [0, 1]), 'a.json: people[0].cell: [0, 1] is a wall, must be a floor cell'],
    ['a person on an exit', (v) => (people(v)[0]!['cell'] = [0, 5]), 'a.json: people[0].cell: [0, 5] is an exit, must be a floor cell'],
    ['two people on one cell', (v) => (v['people'] = [{ cell: [1, 2] }, { cell: [1, 3] }, { cell: [1, 2] }]), 'a.json: people[2].cell: [1, 2] duplicates people[0].cell'],
    ['a person on a step-0 ignition', (v) => (people(v)[0]!['cell'] = [1, 8]), 'a.json: people[0].cell: [1, 8] is a step-0 ignition (fire.ignitions[0])'],
    ['a person on a candidate', (v) => (people(v)[0]!['cell'] = [1, 6]), 'a.json: people[0].cell: [1, 6] is an ignition candidate (fire.ignition_candidates.cells[1])'],
    ['nobody', (v) => (v['people'] = []), 'a.json: people: population 0 is outside [1, 10000]'],
    ['10001 people', (v) => (v['people'] = [{ cell: [1, 2] }, { zone: [1, 1, 1, 1], count: 10000 }]), 'a.json: people: population 10001 is outside [1, 10000]'],
    // Eligible in row 1: (1,1) (1,3) (1,4) (1,7); (1,2) is explicit, (1,5) (1,6) candidates, (1,8) a step-0 ignition.
    ['a zone with too few eligible cells', (v) => (people(v)[1]!['count'] = 5), 'a.json: people[1].zone: 4 eligible cells for count 5'],
    [
      'a zone that earlier overlapping zones may exhaust',
      (v) => (v['people'] = [{ zone: [1, 1, 1, 4], count: 2 }, { cell: [1, 2] }, { zone: [1, 3, 1, 8], count: 2 }]),
      'a.json: people[2].zone: 3 eligible cells, of which earlier overlapping zones may take 2, for count 2',
    ],
  ];
  it.each(cases)('rejects %s', (_, edit, message) => {
    expect(messageFor(edit)).toBe(message);
  });

  it('counts an explicit cell as ineligible for a zone even when it comes later in the list', () => {
    // Without the later cell (1,1) the zone would have 5 eligible cells.
    expect(messageFor((v) => (v['people'] = [{ zone: [1, 1, 1, 8], count: 5 }, { cell: [1, 1] }]))).toBe(
      'a.json: people[0].zone: 4 eligible cells for count 5',
    );
  });

  it('accepts overlapping zones when the worst case still leaves enough cells', () => {
    // Zone 0 can take at most its count (1) of zone 1's 4 eligible cells, leaving 3.
    const s = validateScenario(edited((v) => (v['people'] = [{ cell: [1, 2] }, { zone: [1, 1, 1, 3], count: 1 }, { zone: [1, 1, 1, 8], count: 3 }])), 'a.json');
    expect(s.population).toBe(5);
    // Zone 1 overlaps zone 0 only on (1,3) and (1,4): zone 0 can take at most 2 of them.
    const t = validateScenario(
      edited((v) => (v['people'] = [{ zone: [1, 1, 1, 4], count: 3 }, { zone: [1, 3, 1, 8], count: 1 }])),
      'a.json',
    );
    expect(t.population).toBe(4);
  });

  it('allows people on cells that ignite later, and ignitions on exits', () => {
    const s = validateScenario(
      edited((v) => (fire(v)['ignitions'] = [{ cell: [1, 8], step: 0 }, { cell: [1, 2], step: 9 }, { cell: [0, 5], step: 60 }])),
      'a.json',
    );
    expect(s.ignitions).toEqual([
      { cell: 18, step: 0 },
      { cell: 12, step: 9 },
      { cell: 5, step: 60 },
    ]);
  });
});
