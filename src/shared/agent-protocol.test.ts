import { describe, expect, it } from 'vitest';
import type { Observation } from '../core/sim/observation.js';
import {
  clipMessage,
  decodeActionLine,
  encodeObservationLine,
  isStringRecord,
  parseHostReply,
  parseHostRequest,
} from './agent-protocol.js';

const OBSERVATION: Observation = {
  step: 3,
  max_steps: 50,
  map: ['#E#', '#.#', '###'],
  exits: [[0, 1]],
  burning: [[1, 1]],
  people: [{ id: 'p0000', cell: [1, 1] }],
  evacuated: 2,
  dead: 1,
};

describe('line protocol framing', () => {
  it('writes the observation as canonical JSON plus LF (as Python json.dumps sort_keys, compact)', () => {
    // python3 -c 'import json; print(json.dumps({...}, sort_keys=True, separators=(",", ":")))'
    expect(encodeObservationLine(OBSERVATION)).toBe(
      '{"burning":[[1,1]],"dead":1,"evacuated":2,"exits":[[0,1]],"map":["#E#","#.#","###"],"max_steps":50,"people":[{"cell":[1,1],"id":"p0000"}],"step":3}\n',
    );
  });

  it('accepts an object of strings, with or without a trailing CR', () => {
    expect(decodeActionLine('{"p0000": "N", "p0001": "STAY"}')).toEqual({ ok: true, actions: { p0000: 'N', p0001: 'STAY' } });
    expect(decodeActionLine('{}\r')).toEqual({ ok: true, actions: {} });
    // Legality (known IDs, action letters) is the simulator's action check, not the framing's.
    expect(decodeActionLine('{"nobody":"fly"}')).toEqual({ ok: true, actions: { nobody: 'fly' } });
  });

  it.each(['', 'not json', '[1]', '"N"', '{"p0000":1}', '{"p0000":null}', '{"p0000":"N","p0000":"S"}', '{"a":"N"} x', '{"p0000":1.5}'])(
    'rejects %j',
    (line) => {
      const result = decodeActionLine(line);
      expect(result.ok).toBe(false);
    },
  );

  it('keeps __proto__ as an ordinary key', () => {
    const result = decodeActionLine('{"__proto__":"N"}');
    expect(result.ok).toBe(true);
    if (result.ok) expect(Object.keys(result.actions)).toEqual(['__proto__']);
  });
});

describe('module host messages', () => {
  it('checks the action set shape: plain objects of strings only', () => {
    expect(isStringRecord({ a: 'N' })).toBe(true);
    expect(isStringRecord(Object.assign(Object.create(null) as object, { a: 'S' }))).toBe(true);
    for (const value of [null, 'N', ['N'], { a: 1 }, new Map(), new (class Actions {})(), { a: 'N', b: undefined }]) {
      expect(isStringRecord(value)).toBe(false);
    }
  });

  it('parses replies and requests strictly', () => {
    expect(parseHostReply({ type: 'loaded', seq: 1 })).toEqual({ type: 'loaded', seq: 1 });
    expect(parseHostReply({ type: 'error', seq: 2, stage: 'act', message: 'boom' })).toEqual({ type: 'error', seq: 2, stage: 'act', message: 'boom' });
    expect(parseHostReply({ type: 'actions', seq: 3, actions: { p0000: 'N' } })).toEqual({ type: 'actions', seq: 3, actions: { p0000: 'N' } });
    for (const bad of [null, 'loaded', { type: 'loaded' }, { type: 'loaded', seq: -1 }, { type: 'loaded', seq: 1.5 }, { type: 'error', seq: 1, stage: 'x', message: '' }, { type: 'error', seq: 1, stage: 'act' }, { type: 'actions', seq: 1 }, { type: 'nope', seq: 1 }]) {
      expect(parseHostReply(bad)).toBeUndefined();
    }
    expect(parseHostRequest({ type: 'load', seq: 1, file: '/a.mjs', exportName: 'make' })).toEqual({ type: 'load', seq: 1, file: '/a.mjs', exportName: 'make' });
    expect(parseHostRequest({ type: 'act', seq: 4, observation: OBSERVATION })).toEqual({ type: 'act', seq: 4, observation: OBSERVATION });
    const malformed = [
      { ...OBSERVATION, step: -1 },
      { ...OBSERVATION, map: ['#E#', 3] },
      { ...OBSERVATION, exits: [[0]] },
      { ...OBSERVATION, burning: [[1, 'a']] },
      { ...OBSERVATION, people: [{ id: 'p0000' }] },
      { ...OBSERVATION, people: [{ id: 7, cell: [1, 1] }] },
      { ...OBSERVATION, dead: undefined },
    ];
    for (const observation of malformed) expect(parseHostRequest({ type: 'act', seq: 1, observation })).toBeUndefined();
    for (const bad of [{ type: 'load', seq: 1, file: 3, exportName: 'x' }, { type: 'act', seq: 1 }, { type: 'act', seq: 1, observation: [] }, { type: 'new_agent' }]) {
      expect(parseHostRequest(bad)).toBeUndefined();
    }
  });

  it('clips long agent messages', () => {
    expect(clipMessage('abc', 5)).toBe('abc');
    expect(clipMessage('abcdefgh', 5)).toBe('abcde...');
  });
});
