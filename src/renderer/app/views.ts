/** The views of the workbench, and the places of the app (routes.ts gives each its address). */

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

/** Where the app is: a view, one trial's page, a replay, a comparison, or an address that names nothing (routes.ts gives each its URL). */
export type Location =
  | { readonly view: Exclude<ViewId, 'compare' | 'models'> }
  | { readonly view: 'models'; readonly model?: string }
  | { readonly view: 'compare'; readonly a?: readonly number[]; readonly b?: readonly number[]; readonly episode?: number }
  | { readonly view: 'trial'; readonly trialId: number }
  | { readonly view: 'replay'; readonly trialId: number; readonly index: number; readonly step?: number }
  | { readonly view: 'not-found'; readonly hash: string };

export function isViewId(value: unknown): value is ViewId {
  return VIEWS.some((v) => v.id === value);
}
