/**
 * Every place in the app as a URL: hash routes (`#/trials/12`), so that the
 * same routes work in a browser under `emberbench serve` (the server knows
 * one page, `/s/<id>/`) and in Electron, which loads index.html from a file
 * (router.ts moves the app along them). Pure, so that tests read them.
 *
 * Routes:
 *   #/                         the project overview (also #/overview)
 *   #/suites #/manifests #/run #/trials #/leaderboard #/models #/generate #/signing
 *   #/trials/12                trial 12
 *   #/trials/12/episodes/3     the replay of episode 3 of trial 12
 *   #/trials/12/episodes/3?step=40   ... at step 40
 *   #/compare?a=12,13&b=14&episode=3   a comparison, with the episode replayed
 *   #/models?model=gpt-x       the Models view showing that model's history
 * Anything else is a not-found place that names what was asked for.
 */

import { isViewId, type Location } from './views.js';

/** A positive integer in decimal without sign or leading zeros, or null. */
function id(text: string | undefined): number | null {
  return text !== undefined && /^[1-9][0-9]{0,14}$/.test(text) ? Number(text) : null;
}

function index(text: string | undefined): number | null {
  return text !== undefined && /^(0|[1-9][0-9]{0,14})$/.test(text) ? Number(text) : null;
}

function ids(text: string | null): number[] | null {
  if (text === null || text === '') return [];
  const parts = text.split(',').map((p) => id(p));
  return parts.every((p) => p !== null) ? (parts as number[]) : null;
}

export function hashOf(location: Location): string {
  switch (location.view) {
    case 'overview':
      return '#/';
    case 'trial':
      return `#/trials/${location.trialId}`;
    case 'replay':
      return `#/trials/${location.trialId}/episodes/${location.index}${location.step === undefined || location.step === 0 ? '' : `?step=${location.step}`}`;
    case 'compare': {
      const query = new URLSearchParams();
      const { a = [], b = [], episode } = location;
      if (a.length > 0) query.set('a', a.join(','));
      if (b.length > 0) query.set('b', b.join(','));
      if (episode !== undefined) query.set('episode', String(episode));
      const text = query.toString().replaceAll('%2C', ',');
      return text === '' ? '#/compare' : `#/compare?${text}`;
    }
    case 'not-found':
      return location.hash;
    case 'suites':
    case 'manifests':
    case 'run':
    case 'trials':
    case 'leaderboard':
    case 'generate':
    case 'signing':
      return `#/${location.view}`;
    case 'models':
      return location.model === undefined ? '#/models' : `#/models?${new URLSearchParams({ model: location.model }).toString()}`;
  }
}

/** The place a hash names; an empty hash is null (the caller picks the start). */
export function locationOf(hash: string): Location | null {
  if (hash === '' || hash === '#') return null;
  const notFound: Location = { view: 'not-found', hash };
  if (!hash.startsWith('#/')) return notFound;
  const [path = '', queryText = ''] = hash.slice(2).split(/\?(.*)/s, 2);
  const query = new URLSearchParams(queryText);
  const parts = path === '' ? [] : path.split('/');
  if (parts.length === 0) return { view: 'overview' };
  const [head, trialText, what, episodeText, ...rest] = parts;
  if (head === 'trials' && trialText !== undefined) {
    const trialId = id(trialText);
    if (trialId === null) return notFound;
    if (what === undefined) return { view: 'trial', trialId };
    const episode = index(episodeText);
    if (what !== 'episodes' || episode === null || rest.length > 0) return notFound;
    const stepText = query.get('step');
    const step = stepText === null ? 0 : index(stepText);
    if (step === null) return notFound;
    return step === 0 ? { view: 'replay', trialId, index: episode } : { view: 'replay', trialId, index: episode, step };
  }
  if (parts.length !== 1) return notFound;
  if (head === 'compare') {
    const a = ids(query.get('a'));
    const b = ids(query.get('b'));
    const episodeText = query.get('episode');
    const episode = episodeText === null ? undefined : index(episodeText);
    if (a === null || b === null || episode === null) return notFound;
    return episode === undefined ? { view: 'compare', a, b } : { view: 'compare', a, b, episode };
  }
  if (head === 'models') {
    const model = query.get('model');
    if (model === null) return queryText === '' ? { view: 'models' } : notFound;
    return model === '' ? notFound : { view: 'models', model };
  }
  return isViewId(head) ? { view: head } : notFound;
}
