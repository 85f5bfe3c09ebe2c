import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../errors.js';
import { prepareEpisode } from '../world/episode-start.js';
import { frozenPair, frozenPairTable } from '../world/frozen-pairs.js';
import { validateScenario } from '../world/scenario.js';
import { parseRecordText } from './record-codec.js';
import { directionString, recordDigest, recordText, type RunRecord } from './record.js';
import { BLOCKED_OCCUPIED, NOT_BLOCKED } from './resolver.js';
import { runEpisode } from './episode.js';
import { randomLegalAgent, scriptedAgent, testEpisodeStart, testScenario, type TestWorldSpec } from '../../../test/kits/worlds.js';

const TINY: TestWorldSpec = {
  map: ['######', '#PEP.#', '######'],
  fire: [{ cell: [1, 4], step: 1 }],
  maxSteps: 5,
};

// Computed with Python's json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True) and hashlib.
const TINY_SCENARIO_HASH = '50b7bc4e0e2b7575cc60546cf91f9b5220428be86301926a34ac2abbdaea17a4';
const TINY_RECORD =
  '{"action_schema_version":"1.0","initial":{"burning":[],"people":[[1,1],[1,3]]},"observation_version":"1.0",' +
  '"outcomes":[["evacuated",1],["evacuated",2]],"record_version":"1.0",' +
  `"scenario_hash":"${TINY_SCENARIO_HASH}","scenario_id":"test-world","seed":"0","simulator_version":"1.0",` +
  '"steps":2,"termination_reason":"all_resolved","trajectory":[{"actions":"EW","burning":[[1,4]],"died":[],' +
  '"evacuated":["p0000"],"moved":"E."},{"actions":"W","burning":[],"died":[],"evacuated":["p0001"],"moved":"W"}]}\n';
const TINY_RECORD_DIGEST = '78ba61574e6e72ea62fca510370616000f7696ca23883dc95f66230c21d3cd6d';

async function tinyRecord(): Promise<string> {
  const run = await runEpisode(testEpisodeStart(TINY), scriptedAgent(['EW', 'W']));
  return recordText(run.record);
}

describe('run record', () => {
  it('writes the documented format, byte for byte', async () => {
    expect(testScenario(TINY).hash).toBe(TINY_SCENARIO_HASH);
    const text = await tinyRecord();
    expect(text).toBe(TINY_RECORD);
    expect(recordDigest(text)).toBe(TINY_RECORD_DIGEST);
  });

  it("shares the grid's frozen pairs between its initial lists and its steps", async () => {
    const start = testEpisodeStart({ ...TINY, fire: [{ cell: [1, 4], step: 0 }] });
    const { record } = await runEpisode(start, scriptedAgent(['EW', 'W']));
    const table = frozenPairTable(start.scenario.grid);
    const cols = start.scenario.grid.cols;
    expect(record.initial.people).toEqual([[1, 1], [1, 3]]);
    expect(record.initial.people[0]).toBe(frozenPair(table, cols, cols + 1));
    expect(record.initial.burning).toEqual([[1, 4]]);
    expect(Object.isFrozen(record.initial.burning[0])).toBe(true);
    expect(record.initial.burning[0]).toBe(frozenPair(table, cols, cols + 4));
  });

  it('encodes blocked moves as "." in moved', () => {
    expect(directionString(Uint8Array.of(0, 1, 2, 3, 4))).toBe('.NESW');
    expect(directionString(Uint8Array.of(1, 2, 3), Uint8Array.of(NOT_BLOCKED, BLOCKED_OCCUPIED, NOT_BLOCKED))).toBe('N.S');
    const long = new Uint8Array(20_000).fill(3);
    expect(directionString(long)).toBe('S'.repeat(20_000));
    // Every direction with every block code, longer than any earlier call (the byte buffer grows), then a short one again.
    const moves = Uint8Array.from({ length: 50_000 }, (_, k) => k % 5);
    const blocked = Uint8Array.from({ length: 50_000 }, (_, k) => Math.floor(k / 5) % 4);
    const expected = Array.from(moves, (dir, k) => (blocked[k] === NOT_BLOCKED ? '.NESW'[dir] : '.')).join('');
    expect(directionString(moves, blocked)).toBe(expected);
    expect(directionString(moves)).toBe('.NESW'.repeat(10_000));
    expect(directionString(Uint8Array.of(4, 2), Uint8Array.of(BLOCKED_OCCUPIED, NOT_BLOCKED))).toBe('.E');
  });

  it('writes the same direction strings where there is no TextDecoder', async () => {
    vi.stubGlobal('TextDecoder', undefined);
    vi.resetModules();
    try {
      const bare = await import('./record.js');
      const moves = Uint8Array.from({ length: 20_000 }, (_, k) => (k * 7) % 5);
      const blocked = Uint8Array.from({ length: 20_000 }, (_, k) => (k % 3 === 0 ? BLOCKED_OCCUPIED : NOT_BLOCKED));
      expect(bare.directionString).not.toBe(directionString);
      expect(bare.directionString(moves)).toBe(directionString(moves));
      expect(bare.directionString(moves, blocked)).toBe(directionString(moves, blocked));
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });

  it('is deterministic: the same start and agent give byte-identical text', async () => {
    const scenario = validateScenario(
      testScenario({
        map: ['E.........', '..P.P..P..', '.P....P...', '....P....E', '.P..P..P..'],
        fire: [{ cell: [2, 5], step: 0 }],
        spreadProbability: '0.3',
        maxSteps: 30,
      }).json,
      'test',
    );
    const a = await runEpisode(prepareEpisode(scenario, '42'), randomLegalAgent(9));
    const b = await runEpisode(prepareEpisode(scenario, '42'), randomLegalAgent(9));
    expect(recordText(a.record)).toBe(recordText(b.record));
    const c = await runEpisode(prepareEpisode(scenario, '42'), randomLegalAgent(10));
    expect(recordText(c.record)).not.toBe(recordText(a.record));
  });
});

describe('parseRecordText', () => {
  function rejects(text: string, message: string | RegExp): void {
    expect(() => parseRecordText(text, 'record.json')).toThrow(ValidationError);
    expect(() => parseRecordText(text, 'record.json')).toThrow(message);
  }
  const edit = (change: (r: Record<string, unknown>) => void): string => {
    const value = JSON.parse(TINY_RECORD) as Record<string, unknown>;
    change(value);
    return JSON.stringify(value) + '\n';
  };

  it('loads the canonical text and round-trips it', () => {
    const record: RunRecord = parseRecordText(TINY_RECORD, 'record.json');
    expect(record.steps).toBe(2);
    expect(record.trajectory[0]!.moved).toBe('E.');
    expect(recordText(record)).toBe(TINY_RECORD);
  });

  it('rejects text that is not canonical JSON plus one LF', () => {
    const notCanonical = /record\.json: not canonical JSON plus one LF/;
    rejects(TINY_RECORD.slice(0, -1), notCanonical);
    rejects(TINY_RECORD + '\n', notCanonical);
    rejects(TINY_RECORD.replace('\n', '\r\n'), notCanonical);
    rejects(TINY_RECORD.replace('"steps":2,', '"steps": 2,'), notCanonical);
    rejects(JSON.stringify(JSON.parse(TINY_RECORD), null, 2) + '\n', notCanonical);
    // Key order changed: move "steps" to the front.
    rejects('{"steps":2,' + TINY_RECORD.slice(1).replace('"steps":2,', ''), notCanonical);
    rejects(TINY_RECORD.replace('"test-world"', '"test\\u002dworld"'), notCanonical);
  });

  it('rejects malformed JSON, duplicate keys and non-integer numbers', () => {
    rejects(TINY_RECORD.slice(0, 40), /record\.json: not valid JSON/);
    rejects(TINY_RECORD.replace('"steps":2,', '"steps":2,"steps":2,'), /duplicate key/);
    rejects(TINY_RECORD.replace('"steps":2,', '"steps":2.0,'), /not valid JSON/);
  });

  it('rejects unknown and missing keys, naming the field', () => {
    rejects(edit((r) => (r['extra'] = 1)), 'record.json: record: unknown key "extra"');
    rejects(edit((r) => delete r['seed']), 'record.json: record: missing key "seed"');
    rejects(edit((r) => ((r['initial'] as Record<string, unknown>)['cells'] = [])), 'record.json: initial: unknown key "cells"');
    rejects(
      edit((r) => ((r['trajectory'] as Record<string, unknown>[])[1]!['blocked'] = '')),
      'record.json: trajectory[1]: unknown key "blocked"',
    );
  });

  it('rejects wrong types and out-of-range values, naming the field', () => {
    rejects(edit((r) => (r['steps'] = '2')), 'record.json: steps: expected an integer in [0, 10000]');
    rejects(edit((r) => (r['steps'] = -1)), 'record.json: steps: expected an integer in [0, 10000]');
    rejects(edit((r) => (r['trajectory'] = {})), 'record.json: trajectory: expected an array');
    rejects(edit((r) => ((r['trajectory'] as Record<string, unknown>[])[0]!['moved'] = 5)), 'record.json: trajectory[0].moved: expected a string');
    rejects(edit((r) => ((r['trajectory'] as Record<string, unknown>[])[0]!['actions'] = 'EX')), /trajectory\[0\]\.actions: "EX" is not/);
    rejects(edit((r) => ((r['trajectory'] as Record<string, unknown>[])[0]!['burning'] = [[1, 4, 0]])), /trajectory\[0\]\.burning\[0\]: expected a \[row, col\] pair/);
    rejects(edit((r) => ((r['trajectory'] as Record<string, unknown>[])[0]!['died'] = ['x1'])), /trajectory\[0\]\.died\[0\]: "x1" is not a person ID/);
    rejects(edit((r) => ((r['outcomes'] as unknown[][])[0]![0] = 'saved')), /outcomes\[0\]\[0\]: expected "evacuated", "dead" or "stranded"/);
    rejects(edit((r) => (r['termination_reason'] = 'timeout')), /termination_reason: expected "all_resolved" or "horizon"/);
    rejects(edit((r) => (r['seed'] = '18446744073709551616')), 'record.json: seed: expected a decimal string in [0, 2^64 - 1]');
    rejects(edit((r) => (r['scenario_hash'] = 'ABC')), /scenario_hash: "ABC" is not a SHA-256 hex digest/);
    rejects(edit((r) => (r['simulator_version'] = 1)), 'record.json: simulator_version: expected a string');
    rejects('[]\n', 'record.json: record: expected an object');
  });
});
