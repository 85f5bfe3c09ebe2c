/**
 * The module host: the child process entry that imports a JS/TS agent module
 * and serves the evaluator over its protocol channel, descriptor 3, one JSON
 * message per line (src/shared/agent-protocol.ts, module-host.ts).
 *
 * It runs the operator's agent code, so the evaluator trusts nothing it says
 * beyond the reply shapes; all it does here is make failures precise. One
 * host serves many episodes; the module is imported once.
 */

import { fstatSync } from 'node:fs';
import { Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import { useNativeHash } from '../native-hash.js';
import {
  clipMessage,
  stringRecordEntries,
  parseHostRequest,
  type HostErrorStage,
  type HostReply,
  type HostRequest,
} from '../../shared/agent-protocol.js';
import { ViewObservations } from './view-observation.js';

interface HostedAgent {
  act(observation: unknown): unknown;
}

let exportLabel = '';
let factory: { fn: (...args: never[]) => unknown; owner: unknown } | undefined;
let agent: HostedAgent | undefined;
// The current agent's snapshots on the view path (a fresh one per agent).
let views = new ViewObservations();
// Agents handed out by this host: a factory must build a new one per episode.
const usedAgents = new WeakSet<object>();

/** The protocol channel (module-host.ts HOST_CHANNEL_FD). */
const CHANNEL_FD = 3;

function isChannel(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isSocket() || stat.isFIFO();
  } catch {
    return false;
  }
}

if (!isChannel(CHANNEL_FD)) {
  process.stderr.write('module-host-main is started by the EMBER evaluator with its protocol channel on descriptor 3; it cannot run on its own\n');
  process.exit(64);
}

const channel = new Socket({ fd: CHANNEL_FD, readable: true, writable: true });

function send(reply: HostReply): void {
  // JSON.stringify never writes a raw LF: one reply, one line.
  channel.write(JSON.stringify(reply) + '\n');
}

function describe(error: unknown): string {
  if (error instanceof Error) return clipMessage(`${error.name}: ${error.message}`);
  return clipMessage(`non-Error value thrown: ${String(error)}`);
}

function fail(seq: number, stage: HostErrorStage, message: string): void {
  send({ type: 'error', seq, stage, message: clipMessage(message) });
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? `an object (${Object.prototype.toString.call(value)})` : `a ${typeof value}`;
}

/** Reads `a.b.c` from the module namespace; CommonJS modules also through `default`. */
function readExportPath(namespace: Record<string, unknown>, path: string): { value: unknown; owner: unknown } {
  const segments = path.split('.');
  let root: unknown = namespace;
  const def = namespace.default;
  if (!(segments[0]! in namespace) && typeof def === 'object' && def !== null && segments[0]! in def) root = def;
  let owner: unknown = undefined;
  let value: unknown = root;
  for (const segment of segments) {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || !(segment in value)) {
      return { value: undefined, owner: undefined };
    }
    owner = value;
    value = (value as Record<string, unknown>)[segment];
  }
  // A top-level export is called as a plain function; a.b as a method of a.
  return { value, owner: segments.length > 1 ? owner : undefined };
}

async function load(request: Extract<HostRequest, { type: 'load' }>): Promise<void> {
  exportLabel = request.exportName;
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(pathToFileURL(request.file).href)) as Record<string, unknown>;
  } catch (error) {
    fail(request.seq, 'import', describe(error));
    return;
  }
  const { value, owner } = readExportPath(namespace, request.exportName);
  if (value === undefined) {
    fail(request.seq, 'export', 'is not exported');
    return;
  }
  if (typeof value !== 'function') {
    fail(request.seq, 'export', `is not a function (it is ${typeName(value)})`);
    return;
  }
  factory = { fn: value as (...args: never[]) => unknown, owner };
  send({ type: 'loaded', seq: request.seq });
}

async function newAgent(seq: number): Promise<void> {
  agent = undefined;
  if (factory === undefined) {
    fail(seq, 'factory', 'no agent module is loaded');
    return;
  }
  let made: unknown;
  try {
    made = await Reflect.apply(factory.fn, factory.owner, []);
  } catch (error) {
    fail(seq, 'factory', `agent factory ${exportLabel} raised ${describe(error)}`);
    return;
  }
  if (typeof made !== 'object' || made === null || typeof (made as { act?: unknown }).act !== 'function') {
    fail(seq, 'factory', `agent factory ${exportLabel} returned ${typeName(made)} without an act(observation) method`);
    return;
  }
  if (usedAgents.has(made)) {
    fail(seq, 'factory', `agent factory ${exportLabel} returned an agent already used for an earlier episode; it must build a new agent for every episode`);
    return;
  }
  usedAgents.add(made);
  agent = made as HostedAgent;
  views = new ViewObservations();
  send({ type: 'agent_ready', seq });
}

async function act(request: Extract<HostRequest, { type: 'act' | 'view' }>): Promise<void> {
  const current = agent;
  if (current === undefined) {
    fail(request.seq, 'act', 'act before the agent was built');
    return;
  }
  let observation: unknown;
  if (request.type === 'act') observation = request.observation;
  else {
    try {
      observation = views.observe(request);
    } catch (error) {
      // Only the evaluator sends views; one that does not follow is a bug.
      process.stderr.write(`agent host: ${describe(error)}\n`);
      process.exit(70);
    }
  }
  let result: unknown;
  try {
    result = await current.act(observation);
  } catch (error) {
    fail(request.seq, 'act', `act raised ${describe(error)}`);
    return;
  }
  const entries = stringRecordEntries(result);
  if (entries === undefined) {
    fail(request.seq, 'output', `act returned ${typeName(result)}, not a plain object mapping person IDs to action strings`);
    return;
  }
  // A view is answered with one digit per person when the set reduces to that exactly.
  const moves = request.type === 'view' ? views.movesOf(entries) : undefined;
  if (moves !== undefined) send({ type: 'moves', seq: request.seq, moves });
  // A fresh copy: only own enumerable string values cross the channel.
  else send({ type: 'actions', seq: request.seq, actions: Object.fromEntries(entries) });
}

async function handle(raw: unknown): Promise<void> {
  const request = parseHostRequest(raw);
  if (request === undefined) {
    // Only the evaluator talks to this host; a malformed request is a bug.
    process.stderr.write(`agent host: malformed request from the evaluator\n`);
    process.exit(70);
  }
  switch (request.type) {
    case 'load':
      return load(request);
    case 'new_agent':
      return newAgent(request.seq);
    case 'act':
    case 'view':
      return act(request);
    case 'end_agent':
      agent = undefined;
      return;
  }
}

useNativeHash();
// Requests are handled one at a time, in order; only the evaluator writes them, one per line.
let queue: Promise<void> = Promise.resolve();
let carry = '';
channel.setEncoding('utf8');
channel.on('data', (text: string) => {
  const lines = (carry + text).split('\n');
  carry = lines.pop()!;
  for (const line of lines) {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      raw = undefined;
    }
    queue = queue.then(() => handle(raw));
  }
});
// The agent's own stdout and stderr are not the protocol: the evaluator drains them and keeps only a tail.
// A write that fails there (ENOBUFS on a flooded socket, EPIPE) loses that output, never the host: an
// unhandled 'error' event would end the episode as a crash on one path and not on the other.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);
// The evaluator closed the channel (it finished or died): leave at once.
channel.on('end', () => process.exit(0));
channel.on('error', () => process.exit(0));
