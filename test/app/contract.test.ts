// The contract test: one suite of calls through both transports -- the
// browser-mode HTTP server and the Electron IPC handler (its validation,
// without Electron) -- over the same real services, with the same answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Transport, type WorkbenchApi } from '../../src/shared/api/client.js';
import { CALL_PATH_PREFIX } from '../../src/shared/api/http.js';
import type { ApiResult } from '../../src/shared/api/result.js';
import { createWorkbenchServices, type WorkbenchServices } from '../../src/node/services/services.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import { startWorkbenchServer, type WorkbenchServer } from '../../src/node/server/workbench-server.js';
import { fileUrlMatcher, handleIpcCall } from '../../src/main/ipc-guard.js';

const ROOT = join(import.meta.dirname, '..', '..');
const INDEX = 'file:///app/out/renderer/index.html';

let scratch: string;
let services: WorkbenchServices;
let server: WorkbenchServer;
let http: WorkbenchApi;
let ipc: WorkbenchApi;

function httpTransport(origin: string, token: string): Transport {
  return {
    async call(name, input) {
      const response = await fetch(origin + CALL_PATH_PREFIX + encodeURIComponent(name), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(input ?? {}),
      });
      return (await response.json()) as ApiResult<unknown>;
    },
    subscribe: () => () => undefined,
  };
}

function ipcTransport(): Transport {
  const app = { webContentsId: 1, isAppUrl: fileUrlMatcher(INDEX) };
  const sender = { webContentsId: 1, frameUrl: INDEX, isTopFrame: true };
  return {
    // Structured clone is what IPC does to arguments and answers.
    call: async (name, input) => structuredClone(await handleIpcCall(services.handlers, app, sender, name, structuredClone(input))),
    subscribe: () => () => undefined,
  };
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-contract-'));
  services = await createWorkbenchServices({
    archivePath: join(scratch, 'archive.sqlite'),
    publicSuiteDir: join(ROOT, 'scenarios', 'public', 'v1'),
    entryPoints: defaultEntryPoints(),
    mode: 'browser',
    version: '0.0.0-test',
    emit: () => undefined,
  });
  server = await startWorkbenchServer({ handlers: services.handlers, importBody: services.importBody, staticDir: scratch, port: 0 });
  http = createApi(httpTransport(server.origin, server.token));
  ipc = createApi(ipcTransport());
});

afterAll(async () => {
  await server?.close();
  await services?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

/** Calls both transports and requires the same answer; returns it. */
async function both<T>(call: (api: WorkbenchApi) => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  const a = await call(http);
  const b = await call(ipc);
  expect(b).toEqual(a);
  return a;
}

describe('the contract through both transports', () => {
  it('answers reads the same way', async () => {
    const info = await both((api) => api['app.info']({}));
    expect(info).toMatchObject({ ok: true, value: { mode: 'browser', version: '0.0.0-test' } });
    const suites = await both((api) => api['suites.list']({}));
    expect(suites.ok && suites.value.length).toBeGreaterThan(0);
    const suiteHash = suites.ok ? suites.value[0]!.suiteHash : '';
    const suite = await both((api) => api['suites.get']({ suiteHash }));
    expect(suite.ok && suite.value.scenarios.length).toBe(10);
    await both((api) => api['agents.list']({}));
    await both((api) => api['trials.list']({ sort: 'score', direction: 'desc' }));
    await both((api) => api['episodes.list']({}));
    await both((api) => api['suites.validate']({ suiteHash }));
  });

  it('creates the same manifest either way (seed values never come back)', async () => {
    const suites = await http['suites.list']({});
    const suiteHash = suites.ok ? suites.value[0]!.suiteHash : '';
    const made = await both((api) => api['manifests.create']({ suiteHash, seeds: ['0..2'] }));
    expect(made).toMatchObject({ ok: true, value: { seedCount: 3, episodeCount: 30 } });
    expect(JSON.stringify(made)).not.toMatch(/"seeds"/);
    await both((api) => api['manifests.list']({}));
    await both((api) => api.overview({}));
  });

  it('returns the same error values', async () => {
    const missing = await both((api) => api['trials.get']({ trialId: 999 }));
    expect(missing).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    const badHash = await both((api) => api['suites.get']({ suiteHash: 'nope' }));
    expect(badHash).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'suiteHash' } });
    const extra = await both((api) => (api['app.info'] as (input: unknown) => Promise<ApiResult<unknown>>)({ extra: true }));
    expect(extra.ok).toBe(false);
    const unknownProcedure = await both((api) => createApiCall(api, 'archive.dropAll'));
    expect(unknownProcedure).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
    const badSeeds = await both(async (api) => {
      const suites = await api['suites.list']({});
      return api['manifests.create']({ suiteHash: suites.ok ? suites.value[0]!.suiteHash : '', seeds: ['5..1'] });
    });
    expect(badSeeds.ok).toBe(false);
    const badImport = await both((api) => api['archive.import']({ fileName: 'x.json', text: '{"not": "a result"}' }));
    expect(badImport).toMatchObject({ ok: false, error: { kind: 'validation' } });
  });
});

/** A call by name that the typed API does not have (a malformed request). */
function createApiCall(api: WorkbenchApi, name: string): Promise<ApiResult<unknown>> {
  const transport = api === http ? httpTransport(server.origin, server.token) : ipcTransport();
  return transport.call(name, {});
}
