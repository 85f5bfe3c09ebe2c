/**
 * A real HTTP server on 127.0.0.1 that speaks the chat-completions protocol
 * (POST /v1/chat/completions) with scripted answers, for tests, benches and
 * the app's end-to-end tests.
 *
 * In a test:
 *
 *   const server = await startScriptedServer(greedyScript());
 *   ... base_url: server.baseUrl ...
 *   await server.close();
 *
 * A script maps each request (its parsed body, its headers and its arrival
 * number) to a reply: an answer (with usage fields, optionally late), an
 * HTTP status, a raw body (malformed JSON), or a dropped connection. The
 * ready-made scripts answer from the prompt alone, so identical prompts get
 * identical answers whatever the arrival order.
 *
 * As a process (for end-to-end tests):
 *
 *   node --import tsx test/llm/scripted-server.ts --port 0 --script greedy [--delay-ms 20]
 *
 * prints `listening http://127.0.0.1:PORT/v1` on stdout and serves until
 * killed. Scripts: greedy (direct mode), planner (every person to X0),
 * stay (direct mode, everyone STAYs).
 */

import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequestBody {
  readonly model: string;
  readonly messages: readonly { readonly role: string; readonly content: string }[];
  readonly [key: string]: unknown;
}

export interface RecordedRequest {
  readonly n: number;
  readonly body: ChatRequestBody;
  readonly headers: IncomingHttpHeaders;
}

export type Reply =
  | { readonly kind: 'answer'; readonly content: string; readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number } | null; readonly delayMs?: number }
  | { readonly kind: 'status'; readonly status: number; readonly body?: string; readonly delayMs?: number }
  | { readonly kind: 'raw'; readonly body: string }
  | { readonly kind: 'drop' };

export type Script = (request: RecordedRequest) => Reply | Promise<Reply>;

export interface ScriptedServer {
  /** http://127.0.0.1:PORT/v1: the adapter's base_url. */
  readonly baseUrl: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Requests being answered right now, and the most at once so far. */
  readonly inFlight: () => { readonly now: number; readonly peak: number };
  close(): Promise<void>;
}

/** Deterministic usage: prompt tokens = characters of all messages / 4 (rounded down), completion tokens = answer characters / 4 + 1. */
export function scriptedUsage(body: ChatRequestBody, content: string): { prompt_tokens: number; completion_tokens: number } {
  const chars = body.messages.reduce((sum, m) => sum + m.content.length, 0);
  return { prompt_tokens: Math.floor(chars / 4), completion_tokens: Math.floor(content.length / 4) + 1 };
}

/** An answer with scripted usage. */
export function answer(body: ChatRequestBody, content: string, delayMs?: number): Reply {
  return { kind: 'answer', content, usage: scriptedUsage(body, content), ...(delayMs === undefined ? {} : { delayMs }) };
}

function userPrompt(body: ChatRequestBody): string {
  const user = body.messages.find((m) => m.role === 'user');
  return user?.content ?? '';
}

interface ParsedPrompt {
  readonly map: string[];
  readonly people: { id: string; row: number; col: number }[];
}

/** Reads the adapter's rendering of an observation (src/core/llm/prompt.ts). */
export function parsePrompt(prompt: string): ParsedPrompt {
  const lines = prompt.split('\n');
  const start = lines.findIndex((l) => l.startsWith('map ('));
  const end = lines.findIndex((l) => l.startsWith('exits: '));
  const peopleLine = lines.find((l) => l.startsWith('people (id row,col): ')) ?? '';
  const list = peopleLine.slice('people (id row,col): '.length);
  const people =
    list === ''
      ? []
      : list.split('; ').map((item) => {
          const [id, cell] = item.split(' ');
          const [row, col] = cell!.split(',').map(Number);
          return { id: id!, row: row!, col: col! };
        });
  return { map: lines.slice(start + 1, end), people };
}

const MOVES: readonly [string, number, number][] = [
  ['N', -1, 0],
  ['E', 0, 1],
  ['S', 1, 0],
  ['W', 0, -1],
];

/** A legal greedy action set for a prompt: each person steps down the fire-free distance to the nearest exit, else STAYs. */
export function greedyActions(prompt: string): Record<string, string> {
  const { map, people } = parsePrompt(prompt);
  const rows = map.length;
  const cols = rows > 0 ? map[0]!.length : 0;
  const dist = new Int32Array(rows * cols).fill(-1);
  const queue: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (map[r]![c] !== 'E') continue;
      dist[r * cols + c] = 0;
      queue.push(r * cols + c);
    }
  }
  const open = (r: number, c: number): boolean => r >= 0 && c >= 0 && r < rows && c < cols && (map[r]![c] === '.' || map[r]![c] === 'P');
  for (let head = 0; head < queue.length; head++) {
    const cell = queue[head]!;
    const r = Math.floor(cell / cols);
    const c = cell % cols;
    for (const [, dr, dc] of MOVES) {
      const nr = r + dr;
      const nc = c + dc;
      if (open(nr, nc) && dist[nr * cols + nc] === -1) {
        dist[nr * cols + nc] = dist[cell]! + 1;
        queue.push(nr * cols + nc);
      }
    }
  }
  const out: Record<string, string> = {};
  for (const p of people) {
    const here = dist[p.row * cols + p.col]!;
    let move = 'STAY';
    for (const [name, dr, dc] of MOVES) {
      const nr = p.row + dr;
      const nc = p.col + dc;
      if (nr < 0 || nc < 0 || nr >= rows || nc >= cols) continue;
      const ch = map[nr]![nc];
      const d = dist[nr * cols + nc]!;
      if ((ch === 'E' || open(nr, nc)) && d >= 0 && (here < 0 || d < here)) {
        move = name;
        break;
      }
    }
    out[p.id] = move;
  }
  return out;
}

/** Direct mode: the greedy action set of each prompt. */
export function greedyScript(): Script {
  return ({ body }) => answer(body, JSON.stringify(greedyActions(userPrompt(body))));
}

/** Planner mode: everyone to exit X0. */
export function plannerScript(exit = 'X0'): Script {
  return ({ body }) => answer(body, JSON.stringify({ targets: { '*': exit } }));
}

/** Direct mode: everyone STAYs. */
export function stayScript(): Script {
  return ({ body }) => {
    const actions = Object.fromEntries(parsePrompt(userPrompt(body)).people.map((p) => [p.id, 'STAY']));
    return answer(body, JSON.stringify(actions));
  };
}

function send(res: ServerResponse, status: number, body: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function completionBody(body: ChatRequestBody, content: string, usage: { prompt_tokens: number; completion_tokens: number } | null | undefined): string {
  return JSON.stringify({
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 0,
    model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    ...(usage === null || usage === undefined ? {} : { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }),
  });
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function startScriptedServer(script: Script, options: { readonly port?: number } = {}): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  let now = 0;
  let peak = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        now += 1;
        peak = Math.max(peak, now);
        try {
          if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(res, 404, '{"error":"not found"}');
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody;
          const recorded: RecordedRequest = { n: requests.length, body, headers: req.headers };
          requests.push(recorded);
          const reply = await script(recorded);
          switch (reply.kind) {
            case 'answer':
              if (reply.delayMs !== undefined) await wait(reply.delayMs);
              return send(res, 200, completionBody(body, reply.content, reply.usage));
            case 'status':
              if (reply.delayMs !== undefined) await wait(reply.delayMs);
              return send(res, reply.status, reply.body ?? JSON.stringify({ error: { message: `scripted ${reply.status}` } }));
            case 'raw':
              return send(res, 200, reply.body);
            case 'drop':
              req.socket.destroy();
              return;
          }
        } catch (error) {
          send(res, 500, JSON.stringify({ error: { message: String(error) } }));
        } finally {
          now -= 1;
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    inFlight: () => ({ now, peak }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Standalone: node --import tsx test/llm/scripted-server.ts --port N --script greedy|planner|stay [--delay-ms MS]
if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(`--${name}`);
    return i < 0 ? undefined : process.argv[i + 1];
  };
  const scripts: Record<string, () => Script> = { greedy: greedyScript, planner: () => plannerScript(), stay: stayScript };
  const name = arg('script') ?? 'greedy';
  const make = scripts[name];
  if (make === undefined) {
    process.stderr.write(`unknown --script ${name}; one of ${Object.keys(scripts).join(', ')}\n`);
    process.exit(2);
  }
  const delayMs = Number(arg('delay-ms') ?? '0');
  const script = make();
  const delayed: Script = async (request) => {
    const reply = await script(request);
    return reply.kind === 'answer' && delayMs > 0 ? { ...reply, delayMs } : reply;
  };
  const server = await startScriptedServer(delayed, { port: Number(arg('port') ?? '0') });
  process.stdout.write(`listening ${server.baseUrl}\n`);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

/**
 * An adapter configuration for the scripted server's planner model (mode
 * planner, every 8 steps, quick retries, a price list), before `extra`.
 */
export function plannerConfig(baseUrl: string, apiKeyEnv: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    base_url: baseUrl,
    model: 'scripted-planner',
    api_key_env: apiKeyEnv,
    temperature: '0.7',
    top_p: '1',
    max_tokens: 128,
    seed: null,
    system_prompt_version: '1.0',
    adapter_version: '1.0',
    mode: 'planner',
    planner_interval: 8,
    retry_base_ms: 10,
    pricing: { input_per_million: '0.2', output_per_million: '0.8', cost_unit: 'USD' },
    ...extra,
  };
}
