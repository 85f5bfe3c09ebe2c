import { describe, expect, it } from 'vitest';
import type { Handlers } from '../node/services/dispatch.js';
import { fileUrlMatcher, handleIpcCall, senderProblem, type TrustedApp } from './ipc-guard.js';

const index = 'file:///opt/ember/out/renderer/index.html';
const app: TrustedApp = { webContentsId: 4, isAppUrl: fileUrlMatcher(index) };
const handlers = { 'app.info': async () => ({ version: '1' }) } as unknown as Handlers;
const fromApp = { webContentsId: 4, frameUrl: `${index}#/trials`, isTopFrame: true };

describe('IPC calls are validated in main', () => {
  it('accepts the app page in the app window', async () => {
    expect(senderProblem(fromApp, app)).toBeNull();
    expect(await handleIpcCall(handlers, app, fromApp, 'app.info', {})).toEqual({ ok: true, value: { version: '1' } });
  });

  it('refuses another window, a subframe, another page or a gone frame', async () => {
    expect(senderProblem({ ...fromApp, webContentsId: 5 }, app)).toMatch(/app window/);
    expect(senderProblem({ ...fromApp, isTopFrame: false }, app)).toMatch(/subframe/);
    expect(senderProblem({ ...fromApp, frameUrl: 'file:///etc/evil.html' }, app)).toMatch(/app page/);
    expect(senderProblem({ ...fromApp, frameUrl: 'https://example.com/out/renderer/index.html' }, app)).toMatch(/app page/);
    expect(senderProblem({ ...fromApp, frameUrl: null }, app)).toMatch(/app page/);
    const refused = await handleIpcCall(handlers, app, { ...fromApp, webContentsId: 9 }, 'app.info', {});
    expect(refused).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
  });

  it('checks the procedure name and the input schema', async () => {
    expect(await handleIpcCall(handlers, app, fromApp, 'fs.readFile', {})).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
    expect(await handleIpcCall(handlers, app, fromApp, 'app.info', { x: 1 })).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
    expect(await handleIpcCall(handlers, app, fromApp, 'trials.get', { trialId: -1 })).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'trialId' } });
  });
});
