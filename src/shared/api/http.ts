/**
 * The browser-mode wire format of the contract (`emberbench serve`), shared
 * by the server (src/node/server) and the renderer's HTTP transport.
 *
 * - A call is `POST /api/call/<procedure>` with the JSON input as body; the
 *   answer is the ApiResult as JSON, always with status 200 once the request
 *   is authenticated (errors are values). A request that fails
 *   authentication gets 401, a wrong Host or Origin 403.
 * - Events arrive as server-sent events on `GET /api/events`: each message's
 *   `event` is the event name and its `data` the JSON payload.
 * - Authentication: the URL the server prints carries the per-launch token
 *   (`/?token=...`); the first page load exchanges it for an HttpOnly,
 *   SameSite=Strict cookie, so every later request (scripts, calls, the
 *   event stream) carries it without the page handling the secret.
 */

export const CALL_PATH_PREFIX = '/api/call/';
export const EVENTS_PATH = '/api/events';
export const TOKEN_COOKIE = 'ember_token';
export const TOKEN_QUERY = 'token';
/** The largest call body accepted: an imported result can be large. */
export const MAX_CALL_BODY_BYTES = 512 * 1024 * 1024;
