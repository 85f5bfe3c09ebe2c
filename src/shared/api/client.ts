/**
 * The typed API object the renderer uses, built from the contract over any
 * transport. The Electron preload exposes a `Transport` (two functions, never
 * ipcRenderer); browser mode builds one over HTTP and server-sent events.
 */

import { procedureNames, type EventName, type Events, type Outputs, type ProcedureInput, type ProcedureName } from './contract.js';
import type { ApiResult } from './result.js';

/** What a transport must do: call one procedure, and subscribe to one event stream. */
export interface Transport {
  call(name: string, input: unknown): Promise<ApiResult<unknown>>;
  /** Returns an unsubscribe function. */
  subscribe(event: string, listener: (payload: unknown) => void): () => void;
}

export type WorkbenchApi = {
  readonly [N in ProcedureName]: (input: ProcedureInput<N>) => Promise<ApiResult<Outputs[N]>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
};

/** The API object: one method per procedure of the contract, plus `on` for events. */
export function createApi(transport: Transport): WorkbenchApi {
  const api: Record<string, unknown> = {};
  for (const name of procedureNames) {
    api[name] = (input: unknown) => transport.call(name, input);
  }
  api.on = (event: string, listener: (payload: unknown) => void) => transport.subscribe(event, listener);
  return api as WorkbenchApi;
}

/** The name under which the Electron preload exposes its transport on `window`. */
export const PRELOAD_GLOBAL = 'emberTransport';
/** The IPC channel of procedure calls and the prefix of event channels. */
export const IPC_CALL_CHANNEL = 'ember:call';
export const IPC_EVENT_CHANNEL = 'ember:event';
