/**
 * Loads an episode for the replay views without freezing the page: the
 * record is authenticated and decoded in a Web Worker (episode-worker.ts),
 * which takes a second or more for a record of thousands of people, while
 * the page keeps painting and answering. Where no worker can be started (a
 * page that forbids it, an environment without workers), or the worker
 * fails, the same work runs on the page: the outcome is identical, only
 * the page waits.
 */

import { episodeData, loadEpisode, type DecodedOrFailed, type EpisodeSource, type LoadedEpisode } from './episode-data.js';

interface Reply {
  readonly id: number;
  readonly decoded: DecodedOrFailed;
}

let worker: Worker | null | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve: (loaded: LoadedEpisode) => void; source: EpisodeSource }>();

/** Every waiting load on the page, and no worker from now on. */
function abandonWorker(): void {
  worker?.terminate();
  worker = null;
  const pending = [...waiting.values()];
  waiting.clear();
  for (const { resolve, source } of pending) resolve(loadEpisode(source));
}

function episodeWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./episode-worker.ts', import.meta.url), { type: 'module', name: 'episode-worker' });
  } catch {
    worker = null;
    return null;
  }
  worker.onmessage = (event: MessageEvent<Reply>) => {
    const { id, decoded } = event.data;
    const entry = waiting.get(id);
    if (entry === undefined) return;
    waiting.delete(id);
    entry.resolve(decoded.ok ? { ok: true, data: episodeData(decoded.data) } : decoded);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    abandonWorker();
  };
  worker.onmessageerror = () => abandonWorker();
  return worker;
}

/** Authenticates and decodes an episode off the page's thread when it can (see above); never rejects. */
export function loadEpisodeOffPage(source: EpisodeSource): Promise<LoadedEpisode> {
  const w = episodeWorker();
  if (w === null) return new Promise((resolve) => setTimeout(() => resolve(loadEpisode(source)), 0));
  return new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, { resolve, source });
    w.postMessage({ id, source });
  });
}
