/**
 * The sandboxed preload: exposes one small transport object to the page
 * (`window.emberTransport`: call a contract procedure, subscribe to a
 * contract event), never ipcRenderer itself. The renderer builds its typed
 * API object from it with createApi (src/shared/api/client.ts). Names are
 * checked here too, so the page cannot reach any other channel.
 */

import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, PRELOAD_GLOBAL, type Transport } from '../shared/api/client.js';
import { eventNames, isProcedureName } from '../shared/api/contract.js';
import type { ApiResult } from '../shared/api/result.js';

const listeners = new Map<string, Set<(payload: unknown) => void>>();

ipcRenderer.on(IPC_EVENT_CHANNEL, (_event: IpcRendererEvent, name: unknown, payload: unknown) => {
  if (typeof name !== 'string') return;
  for (const listener of listeners.get(name) ?? []) listener(payload);
});

const transport: Transport = {
  call(name: string, input: unknown): Promise<ApiResult<unknown>> {
    if (!isProcedureName(name)) return Promise.resolve({ ok: false, error: { kind: 'bad_request', message: `unknown procedure ${name}` } });
    return ipcRenderer.invoke(IPC_CALL_CHANNEL, name, input) as Promise<ApiResult<unknown>>;
  },
  subscribe(event: string, listener: (payload: unknown) => void): () => void {
    if (!(eventNames as readonly string[]).includes(event)) throw new Error(`unknown event ${event}`);
    let set = listeners.get(event);
    if (set === undefined) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  },
};

contextBridge.exposeInMainWorld(PRELOAD_GLOBAL, transport);
