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

const scope = self as unknown as { onmessage: ((event: MessageEvent<Request>) => void) | null; postMessage(message: unknown, transfer: Transferable[]): void };

scope.onmessage = (event) => {
  const { id, source } = event.data;
  const decoded = decodeEpisode(source);
  scope.postMessage({ id, decoded }, decoded.ok ? transferablesOf(decoded.data) : []);
};
