/** The views of the workbench, and the one remembered between launches. */

export const VIEWS = [
  { id: 'overview', label: 'Project', key: '1' },
  { id: 'suites', label: 'Suites and packs', key: '2' },
  { id: 'manifests', label: 'Manifests', key: '3' },
  { id: 'run', label: 'Run', key: '4' },
  { id: 'trials', label: 'Trials', key: '5' },
  { id: 'compare', label: 'Compare', key: '6' },
  { id: 'leaderboard', label: 'Leaderboard', key: '7' },
  { id: 'generate', label: 'Generate', key: '8' },
  { id: 'signing', label: 'Signing keys', key: '9' },
  { id: 'models', label: 'Models', key: '0' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

/** Where the app is: a view, or one trial's page. */
export type Location =
  | { readonly view: ViewId }
  | { readonly view: 'trial'; readonly trialId: number }
  | { readonly view: 'replay'; readonly trialId: number; readonly index: number };

const STORAGE_KEY = 'ember.location';

export function isViewId(value: unknown): value is ViewId {
  return VIEWS.some((v) => v.id === value);
}

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
