/**
 * Form state that outlives its view: a view unmounts when the user goes to
 * another one, and a half-filled form (the Run view's manifest, pack and
 * agent) must be there when they come back. Kept in memory for the page's
 * life only: nothing typed (paths, a model's configuration) is written to
 * the browser's storage.
 */

import { useCallback, useState, type Dispatch, type SetStateAction } from 'react';

const remembered = new Map<string, unknown>();

/** Like useState, but the value under `key` is kept when the component unmounts and given back when it mounts again. */
export function useRememberedState<T>(key: string, initial: T): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState<T>(() => (remembered.has(key) ? (remembered.get(key) as T) : initial));
  const set = useCallback<Dispatch<SetStateAction<T>>>(
    (next) =>
      setValue((previous) => {
        const value = typeof next === 'function' ? (next as (p: T) => T)(previous) : next;
        remembered.set(key, value);
        return value;
      }),
    [key],
  );
  return [value, set];
}

/** Forgets every remembered value (tests). */
export function forgetRememberedState(): void {
  remembered.clear();
}
