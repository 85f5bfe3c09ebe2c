/**
 * The episode worker (a dedicated Web Worker started by episode-loader.ts):
 * authenticates and decodes one episode per message (decodeEpisode), off
 * the page's thread, and posts the result back with its typed arrays
 * transferred.
 */

import { decodeEpisode, transferablesOf, type EpisodeSource } from './episode-data.js';

interface Request {
  readonly id: number;
  readonly source: EpisodeSource;
}

// The renderer compiles against the DOM lib, which types `self` as a window;
// the options form of postMessage is the one a worker's and a window's share.
self.onmessage = (event: MessageEvent<Request>) => {
  const { id, source } = event.data;
  const decoded = decodeEpisode(source);
  self.postMessage({ id, decoded }, { transfer: decoded.ok ? transferablesOf(decoded.data) : [] });
};
