// Shared pieces of the archive process tests.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Events, EventName, RunProgressEvent } from '../../src/shared/api/contract.js';
import { createWorkbenchServices, type WorkbenchServices } from '../../src/node/services/services.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const PUBLIC_SUITE = join(ROOT, 'scenarios', 'public', 'v1');

export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every file under `dir`, by its `/`-separated relative path (a stored pack's files, as the archive hands them to a job). */
export function filesOf(dir: string): [string, Uint8Array][] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => [relative(dir, path).split(sep).join('/'), readFileSync(path)]);
}

export interface Harness {
  readonly services: WorkbenchServices;
  readonly events: { event: EventName; payload: unknown }[];
  /** Resolves with the terminal progress event of a trial (complete, incomplete, cancelled, failed). */
  ended(trialId: number): Promise<RunProgressEvent>;
}

const TERMINAL = new Set(['complete', 'incomplete', 'cancelled', 'failed']);

export async function openServices(archivePath: string): Promise<Harness> {
  const events: { event: EventName; payload: unknown }[] = [];
  const waiters: { trialId: number; resolve: (e: RunProgressEvent) => void }[] = [];
  const emit = <E extends EventName>(event: E, payload: Events[E]): void => {
    events.push({ event, payload });
    if (event !== 'run.progress') return;
    const p = payload as RunProgressEvent;
    if (!TERMINAL.has(p.state)) return;
    for (const w of waiters.filter((x) => x.trialId === p.trialId)) w.resolve(p);
  };
  const services = await createWorkbenchServices({ archivePath, publicSuiteDir: PUBLIC_SUITE, entryPoints: defaultEntryPoints(), mode: 'browser', version: 'test', emit });
  return {
    services,
    events,
    ended: (trialId) => {
      const done = events.find((e) => e.event === 'run.progress' && (e.payload as RunProgressEvent).trialId === trialId && TERMINAL.has((e.payload as RunProgressEvent).state));
      if (done !== undefined) return Promise.resolve(done.payload as RunProgressEvent);
      return new Promise((resolve) => waiters.push({ trialId, resolve }));
    },
  };
}
