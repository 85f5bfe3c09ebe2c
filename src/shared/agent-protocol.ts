/**
 * The two agent protocols (evaluation.md section 8):
 *
 * 1. The module host protocol: one JSON message per line over a dedicated
 *    pipe (the host's descriptor 3; never Node's IPC channel) between the
 *    evaluator and the child process that imports a JS/TS agent module.
 *    Every request carries a sequence number and every reply repeats it, so
 *    a stray line from agent code can never be taken for a reply.
 * 2. The line protocol for agents in any language: one canonical-JSON
 *    observation per line on the agent's stdin, one JSON action set per line
 *    on its stdout.
 *
 * Both sides validate every message they receive: the child runs untrusted
 * agent code that can send anything.
 */

import { canonicalJson } from '../core/json/canonical.js';
import { parseStrictJson } from '../core/json/strict-parse.js';
import type { Observation, ObservedPerson } from '../core/sim/observation.js';
import type { CellPair } from '../core/world/grid.js';

// ---------------------------------------------------------------------------
// Module host protocol (a line-framed pipe)

/**
 * Evaluator -> host. `load` once per host; then per episode `new_agent`,
 * any number of `act`, and `end_agent` (no reply; drops the agent).
 */
export type HostRequest =
  | { readonly type: 'load'; readonly seq: number; readonly file: string; readonly exportName: string }
  | { readonly type: 'new_agent'; readonly seq: number }
  | { readonly type: 'act'; readonly seq: number; readonly observation: Observation }
  | ({ readonly type: 'view'; readonly seq: number } & ViewDelta)
  | { readonly type: 'end_agent'; readonly seq: number };

/**
 * One snapshot as the evaluator sends it to the module host on the fast
 * path (the runner's MoveView), as a delta: the host keeps the previous
 * snapshot and rebuilds the very observation `act` would get. `start`
 * comes with an agent's first view only (step 0); after it `people` lists
 * only the persons whose cell changed, `gone` those no longer active.
 */
export interface ViewDelta {
  readonly step: number;
  readonly evacuated: number;
  readonly dead: number;
  readonly start?: { readonly max_steps: number; readonly map: readonly string[] };
  /** Person indices that are no longer active. */
  readonly gone: readonly number[];
  /** (person index, row-major cell) pairs, flattened, in person order: every active person at the start, then the movers. */
  readonly people: readonly number[];
  /** Cells that started burning since the previous view (B(0) at step 0), row-major ascending. */
  readonly added: readonly number[];
}

function isNumberArray(value: unknown): value is readonly number[] {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== 'number' || !Number.isSafeInteger(item) || item < 0) return false;
  return true;
}

function parseViewStart(value: unknown): ViewDelta['start'] | null {
  if (value === undefined) return undefined;
  if (!isRecord(value) || !isSeq(value.max_steps) || !Array.isArray(value.map) || !value.map.every((row) => typeof row === 'string')) return null;
  return { max_steps: value.max_steps, map: value.map as string[] };
}

/**
 * Where a host-side failure happened. `output` is an act result that is not
 * an action set shape (invalid_output); the others are model errors.
 */
export type HostErrorStage = 'import' | 'export' | 'factory' | 'act' | 'output';

export const HOST_ERROR_STAGES: readonly HostErrorStage[] = ['import', 'export', 'factory', 'act', 'output'];

/** Host -> evaluator. Each reply answers the request with the same `seq`. */
export type HostReply =
  | { readonly type: 'loaded'; readonly seq: number }
  | { readonly type: 'agent_ready'; readonly seq: number }
  | { readonly type: 'actions'; readonly seq: number; readonly actions: Readonly<Record<string, string>> }
  /** The answer to a view when the action set named exactly the active persons with valid actions: one digit 0..4 (STAY N E S W) per active person, in person order. */
  | { readonly type: 'moves'; readonly seq: number; readonly moves: string }
  | { readonly type: 'error'; readonly seq: number; readonly stage: HostErrorStage; readonly message: string };

/** The longest error message a host sends (agent messages can be huge). */
export const HOST_MESSAGE_MAX_CHARS = 2000;

/** Bytes of an agent process's stderr kept for error messages. */
export const STDERR_TAIL_BYTES = 4096;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * A plain object (prototype Object.prototype or null) whose own enumerable
 * string-keyed values are all strings. This is the action set *shape*; the
 * simulator's action check decides legality (person IDs, action letters).
 */
export function isStringRecord(value: unknown): value is Readonly<Record<string, string>> {
  return stringRecordEntries(value) !== undefined;
}

/**
 * The own enumerable entries of a value that isStringRecord accepts, read
 * once (each value read by one [[Get]]); undefined for any other value. For
 * a caller that needs the entries anyway: a 500-person action set is a
 * dictionary-mode object, whose keyed reads cost more than one walk.
 */
export function stringRecordEntries(value: unknown): [string, string][] | undefined {
  if (!isRecord(value)) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const entries = Object.entries(value);
  for (let k = 0; k < entries.length; k++) {
    if (typeof entries[k]![1] !== 'string') return undefined;
  }
  return entries as [string, string][];
}

/** Parses a host reply; `undefined` when the message is not exactly one of {@link HostReply}. */
export function parseHostReply(message: unknown): HostReply | undefined {
  if (!isRecord(message) || !isSeq(message.seq)) return undefined;
  const seq = message.seq;
  switch (message.type) {
    case 'loaded':
    case 'agent_ready':
      return { type: message.type, seq };
    case 'actions':
      // Any object shape problem is reported by the caller as invalid_output,
      // so keep the raw value here and let it check with isStringRecord.
      return 'actions' in message ? { type: 'actions', seq, actions: message.actions as Record<string, string> } : undefined;
    case 'moves':
      return typeof message.moves === 'string' ? { type: 'moves', seq, moves: message.moves } : undefined;
    case 'error': {
      const stage = message.stage;
      if (typeof message.message !== 'string' || !HOST_ERROR_STAGES.includes(stage as HostErrorStage)) return undefined;
      return { type: 'error', seq, stage: stage as HostErrorStage, message: message.message };
    }
    default:
      return undefined;
  }
}

function isCellPair(value: unknown): value is CellPair {
  return Array.isArray(value) && value.length === 2 && isSeq(value[0]) && isSeq(value[1]);
}

function isObservedPerson(value: unknown): value is ObservedPerson {
  return isRecord(value) && typeof value.id === 'string' && isCellPair(value.cell);
}

/** The whole shape of an observation (what `act` hands the agent), checked field by field. */
function isObservation(value: unknown): value is Observation {
  if (!isRecord(value) || !isSeq(value.step) || !isSeq(value.max_steps) || !isSeq(value.evacuated) || !isSeq(value.dead)) return false;
  const { map, exits, burning, people } = value;
  return (
    Array.isArray(map) &&
    map.every((row) => typeof row === 'string') &&
    Array.isArray(exits) &&
    exits.every(isCellPair) &&
    Array.isArray(burning) &&
    burning.every(isCellPair) &&
    Array.isArray(people) &&
    people.every(isObservedPerson)
  );
}

/** Parses an evaluator request inside the host; `undefined` when malformed. */
export function parseHostRequest(message: unknown): HostRequest | undefined {
  if (!isRecord(message) || !isSeq(message.seq)) return undefined;
  const seq = message.seq;
  switch (message.type) {
    case 'load':
      if (typeof message.file !== 'string' || typeof message.exportName !== 'string') return undefined;
      return { type: 'load', seq, file: message.file, exportName: message.exportName };
    case 'new_agent':
    case 'end_agent':
      return { type: message.type, seq };
    case 'act':
      return isObservation(message.observation) ? { type: 'act', seq, observation: message.observation } : undefined;
    case 'view': {
      const start = parseViewStart(message.start);
      const { step, evacuated, dead, gone, people, added } = message;
      if (start === null || !isSeq(step) || !isSeq(evacuated) || !isSeq(dead)) return undefined;
      if (!isNumberArray(gone) || !isNumberArray(people) || people.length % 2 !== 0 || !isNumberArray(added)) return undefined;
      return { type: 'view', seq, step, evacuated, dead, ...(start === undefined ? {} : { start }), gone, people, added };
    }
    default:
      return undefined;
  }
}

/** Shortens an agent-supplied message so one error line stays readable. */
export function clipMessage(text: string, max = HOST_MESSAGE_MAX_CHARS): string {
  return text.length <= max ? text : text.slice(0, max) + '...';
}

// ---------------------------------------------------------------------------
// Line protocol (stdin/stdout of an external program)

/** The longest action-set line accepted, in bytes without the LF. */
export const LINE_PROTOCOL_MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * One observation line: canonical JSON (ASCII, sorted keys, no whitespace)
 * plus LF. Canonical JSON never contains a raw LF, so framing is exact.
 */
export function encodeObservationLine(observation: Observation): string {
  return canonicalJson(observation) + '\n';
}

export type ActionLineResult =
  | { readonly ok: true; readonly actions: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly reason: string };

/**
 * Decodes one action-set line (without its LF; a trailing CR is allowed so
 * text-mode writers on Windows work). Strict JSON: duplicate keys rejected.
 */
export function decodeActionLine(line: string): ActionLineResult {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  let value: unknown;
  try {
    value = parseStrictJson(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `agent output is not valid JSON: ${reason}` };
  }
  if (!isStringRecord(value)) return { ok: false, reason: NOT_AN_ACTION_SET };
  return { ok: true, actions: value };
}

export const NOT_AN_ACTION_SET = 'agent output is not a JSON object mapping person IDs to action strings';

/** The value of `observations` in an answer that opts in to delta observations. */
export const DELTA_OBSERVATIONS = 'delta';

/**
 * The answer to the first observation (step 0) may opt in to delta
 * observations: `{"actions": <action set>, "observations": "delta"}`
 * (docs/agents.md). No action set has these keys (person IDs are p0000,
 * p0001, ...), so agents that do not opt in are unaffected. Returns the
 * inner action set (still to be checked), or undefined when the line is not
 * exactly such an object (it is then decoded as an action line).
 */
export function decodeOptIn(line: string): { readonly actions: unknown } | undefined {
  let value: unknown;
  try {
    value = parseStrictJson(line.endsWith('\r') ? line.slice(0, -1) : line);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 2 || !('actions' in value) || value.observations !== DELTA_OBSERVATIONS) return undefined;
  return { actions: value.actions };
}
