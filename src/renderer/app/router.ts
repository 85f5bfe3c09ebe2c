/**
 * The app's place follows the address bar (routes.ts says which address is
 * which place): a move pushes a history entry, so Back and Forward work; a
 * place's details that change continuously (the replay's step) replace the
 * current entry instead. The last place is also remembered, for a start
 * without an address.
 */

import { useCallback, useEffect, useState } from 'react';
import { hashOf, locationOf } from './routes.js';
import { isViewId, type Location } from './views.js';

const STORAGE_KEY = 'ember.location';

export function loadLocation(): Location {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (typeof raw === 'object' && raw !== null) {
      const { view, trialId } = raw as { view?: unknown; trialId?: unknown };
      if (view === 'trial' && typeof trialId === 'number' && Number.isInteger(trialId) && trialId > 0) return { view, trialId };
      const { index } = raw as { index?: unknown };
      if (view === 'replay' && typeof trialId === 'number' && Number.isInteger(trialId) && trialId > 0 && typeof index === 'number' && Number.isInteger(index) && index >= 0) return { view, trialId, index };
      if (isViewId(view)) return { view };
    }
  } catch {
    // storage unavailable or garbled: start at the project overview
  }
  return { view: 'overview' };
}

export function saveLocation(location: Location): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(location));
  } catch {
    // private mode or full storage: the app still works, it just will not remember
  }
}

/** Replaces the current history entry's hash (no new entry, no hashchange). */
export function replaceLocation(location: Location): void {
  const hash = hashOf(location);
  if (window.location.hash !== hash) window.history.replaceState(window.history.state, '', hash);
}

/**
 * The app's place from the address bar, following Back and Forward. At
 * start an empty hash takes `fallback` (the place remembered from the last
 * visit) without adding a history entry.
 */
export function useHashLocation(fallback: () => Location): [Location, (next: Location) => void] {
  const [location, setLocation] = useState<Location>(() => {
    const start = locationOf(window.location.hash);
    if (start !== null) return start;
    const remembered = fallback();
    replaceLocation(remembered);
    return remembered;
  });
  useEffect(() => {
    const onChange = (): void => setLocation(locationOf(window.location.hash) ?? { view: 'overview' });
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  const go = useCallback((next: Location) => {
    const hash = hashOf(next);
    // The same place again changes nothing (no duplicate history entry); hashchange sets the state.
    if (window.location.hash === hash) setLocation(next);
    else window.location.hash = hash;
  }, []);
  return [location, go];
}

/**
 * Back and Forward where no browser gives them (the desktop app's window has
 * no toolbar): Alt+← / Alt+→ and the mouse's back and forward buttons. Off
 * in a browser, which already does this and would move twice.
 */
export function useHistoryKeys(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent): void => {
      if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      event.preventDefault();
      if (event.key === 'ArrowLeft') window.history.back();
      else window.history.forward();
    };
    const onMouse = (event: MouseEvent): void => {
      // Buttons 3 and 4 are the mouse's back and forward buttons.
      if (event.button === 3) window.history.back();
      else if (event.button === 4) window.history.forward();
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('mouseup', onMouse);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mouseup', onMouse);
    };
  }, [enabled]);
}
