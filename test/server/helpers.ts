// Starting the fixture server (serve-fixture.ts) and talking to it over raw
// sockets, so that a test controls every byte and pause of a request.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { ServerLimits } from '../../src/node/server/limits.js';
import { TSX } from '../cli/run-cli.js';

export interface FixtureServer {
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  readonly appPath: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Generous: a loaded machine starts a process slowly; no assertion depends on it. */
const START_DEADLINE_MS = 120_000;

export function startFixture(archive: string, limits: Partial<ServerLimits>, jobHeapMb?: number): Promise<FixtureServer> {
  const child: ChildProcess = spawn(process.execPath, ['--import', TSX, join(import.meta.dirname, 'serve-fixture.ts'), JSON.stringify({ archive, limits, jobHeapMb })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the fixture server did not start; stderr:\n${err}`));
    }, START_DEADLINE_MS);
    void exited.then(() => reject(new Error(`the fixture server exited; stderr:\n${err}`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const line = out.split('\n')[0]!;
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      const info = JSON.parse(line) as { origin: string; port: number; token: string; appPath: string };
      resolve({
        ...info,
        stderr: () => err,
        stop: async () => {
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
          await exited;
          clearTimeout(killer);
        },
      });
    });
  });
}

/** A raw connection: everything received, and whether (and when) the server closed it. */
export interface RawConnection {
  readonly socket: Socket;
  received(): string;
  /** Resolves when the connection is closed (by either side), with what was received. */
  readonly closed: Promise<string>;
  /** Writes, ignoring a connection the server already closed. */
  write(data: string | Buffer): void;
}

export function rawConnection(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    // Errors (a reset while the client still writes) end the exchange too.
    socket.on('error', () => undefined);
    const closed = new Promise<string>((done) => socket.once('close', () => done(text)));
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => text,
        closed,
        write: (data) => {
          if (!socket.destroyed && socket.writable) socket.write(data);
        },
      }),
    );
    socket.once('error', reject);
  });
}

/** Status line, headers (lower-case names) and body of one HTTP/1.1 answer. */
export function parseAnswer(text: string): { status: number; headers: Record<string, string>; body: string } {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = split < 0 ? '' : text.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body };
}

function dechunk(body: string): string {
  let out = '';
  for (let at = 0; at < body.length; ) {
    const eol = body.indexOf('\r\n', at);
    const size = parseInt(body.slice(at, eol), 16);
    if (!(size > 0)) break;
    out += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
  return out;
}

/** The head of a request. */
export function requestHead(port: number, method: string, path: string, headers: Record<string, string | number>): string {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** A whole call with the Bearer token, answered (fetch: the test's own client). */
export async function call(server: FixtureServer, name: string, body: string | Uint8Array): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${server.origin}/api/call/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body,
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as unknown };
}
