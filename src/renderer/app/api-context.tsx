/**
 * The API object reaches every view through context, and two hooks turn its
 * calls and events into React state: `useQuery` (a call whose answer a view
 * shows, refetched on demand or when the archive changes) and `useEvent`.
 */

import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { WorkbenchApi } from '../../shared/api/client.js';
import type { EventName, Events } from '../../shared/api/contract.js';
import type { ApiError, ApiResult } from '../../shared/api/result.js';
import { touches, type ArchiveTopic } from './archive-changes.js';

const ApiContext = createContext<WorkbenchApi | null>(null);

export function ApiProvider({ api, children }: { api: WorkbenchApi; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useApi(): WorkbenchApi {
  const api = useContext(ApiContext);
  if (api === null) throw new Error('useApi outside ApiProvider');
  return api;
}

export function useEvent<E extends EventName>(event: E, listener: (payload: Events[E]) => void): void {
  const api = useApi();
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => api.on(event, (payload) => ref.current(payload)), [api, event]);
}

export interface Query<T> {
  readonly data: T | null;
  readonly error: ApiError | null;
  readonly loading: boolean;
  readonly refetch: () => void;
}

/**
 * Runs `call` now, again whenever `key` changes, on `refetch()`, and on every
 * `archive.changed` event that touches one of `topics`, the parts of the
 * archive the answer shows (archive-changes.ts; none for an answer the
 * archive does not hold), so a view never shows a stale archive and never
 * refetches what did not change. The last good answer stays on screen while
 * a refetch is in flight.
 */
export function useQuery<T>(call: (api: WorkbenchApi) => Promise<ApiResult<T>>, key: string, topics: readonly ArchiveTopic[]): Query<T> {
  const api = useApi();
  const [state, setState] = useState<{ data: T | null; error: ApiError | null; loading: boolean }>({ data: null, error: null, loading: true });
  const [tick, setTick] = useState(0);
  const callRef = useRef(call);
  callRef.current = call;
  const refetch = useCallback(() => setTick((t) => t + 1), []);
  const topicsRef = useRef(topics);
  topicsRef.current = topics;
  useEvent('archive.changed', (change) => {
    if (touches(change, topicsRef.current)) refetch();
  });
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    callRef.current(api).then((result) => {
      if (!live) return;
      setState((s) => (result.ok ? { data: result.value, error: null, loading: false } : { data: s.data, error: result.error, loading: false }));
    });
    return () => {
      live = false;
    };
  }, [api, key, tick]);
  return { ...state, refetch };
}

/** A long action started from a button: busy while it runs, its error until the next try. */
export function useAction<T>(): {
  busy: boolean;
  error: ApiError | null;
  run: (call: () => Promise<ApiResult<T>>) => Promise<T | null>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = useCallback(async (call: () => Promise<ApiResult<T>>) => {
    setBusy(true);
    setError(null);
    try {
      const result = await call();
      if (result.ok) return result.value;
      setError(result.error);
      return null;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: useCallback(() => setError(null), []) };
}
