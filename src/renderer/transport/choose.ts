/**
 * The one choice of transport: inside Electron the preload has put a
 * Transport on `window` (never ipcRenderer itself); anywhere else the page
 * was served by `emberbench serve` and talks HTTP to its own origin.
 */

import { PRELOAD_GLOBAL, createApi, type Transport, type WorkbenchApi } from '../../shared/api/client.js';
import { createHttpTransport } from './http.js';

function isTransport(value: unknown): value is Transport {
  return typeof value === 'object' && value !== null && typeof (value as Transport).call === 'function' && typeof (value as Transport).subscribe === 'function';
}

export function chooseApi(): WorkbenchApi {
  const preload: unknown = Reflect.get(window, PRELOAD_GLOBAL);
  return createApi(isTransport(preload) ? preload : createHttpTransport());
}
