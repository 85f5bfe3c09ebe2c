/**
 * The browser-mode transport (src/shared/api/http.ts wire format): a call is
 * a same-origin POST whose answer is the ApiResult itself; events arrive on
 * one shared EventSource. Authentication is the cookie the server set when
 * the page was loaded with its token, so no secret passes through here.
 */

import type { Transport } from '../../shared/api/client.js';
import { CALL_PATH_PREFIX, EVENTS_PATH } from '../../shared/api/http.js';
import { fail, type ApiResult } from '../../shared/api/result.js';

/** What a failed HTTP exchange means for the person at the screen. */
function httpFailure(status: number): ApiResult<never> {
  if (status === 401) return fail('bad_request', 'The workbench refused this page (no valid token). Open the address that `emberbench serve` printed, with its ?token=, again.');
  if (status === 403) return fail('bad_request', 'The workbench refused this page: open it at the exact address `emberbench serve` printed (127.0.0.1 and its port).');
  return fail('internal', `The workbench server answered HTTP ${status}. Reload the page; if it persists, restart \`emberbench serve\`.`);
}

/**
 * `base` is the server's origin, or '' in the page: then calls go to
 * `./api/...`, relative to the page's path (`/s/<id>/`), the only path the
 * login cookie is sent to. `headers` are added to every call (a Bearer
 * token where no cookie jar exists, as in a Node test).
 */
export function createHttpTransport(base: string = '', headers: Readonly<Record<string, string>> = {}): Transport {
  const root = base === '' ? '.' : base;
  let source: EventSource | null = null;
  const listeners = new Map<string, Set<(payload: unknown) => void>>();

  function eventSource(): EventSource {
    if (source === null) source = new EventSource(root + EVENTS_PATH);
    return source;
  }

  return {
    async call(name, input) {
      let response: Response;
      try {
        response = await fetch(root + CALL_PATH_PREFIX + encodeURIComponent(name), {
          method: 'POST',
          credentials: 'same-origin',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(input ?? {}),
        });
      } catch {
        return fail('unavailable', 'The workbench server does not answer: `emberbench serve` was stopped, or its computer sleeps.');
      }
      if (response.status !== 200) return httpFailure(response.status);
      try {
        return (await response.json()) as ApiResult<unknown>;
      } catch {
        return fail('internal', 'The workbench server sent an answer that is not JSON (a bug). Reload the page and report it if it persists.');
      }
    },
    subscribe(event, listener) {
      let set = listeners.get(event);
      if (set === undefined) {
        const fresh = new Set<(payload: unknown) => void>();
        listeners.set(event, fresh);
        set = fresh;
        eventSource().addEventListener(event, (message) => {
          const data = (message as { data?: unknown }).data;
          let payload: unknown;
          try {
            payload = JSON.parse(typeof data === 'string' ? data : '');
          } catch {
            return; // a malformed event is dropped; the next one carries the full state
          }
          for (const l of fresh) l(payload);
        });
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  };
}
