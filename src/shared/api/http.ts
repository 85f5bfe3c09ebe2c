/**
 * The browser-mode wire format of the contract (`emberbench serve`), shared
 * by the server (src/node/server) and the renderer's HTTP transport.
 *
 * - A call is `POST api/call/<procedure>` with the JSON input as body; the
 *   answer is the ApiResult as JSON, always with status 200 once the request
 *   is authenticated (errors are values). A request that fails
 *   authentication gets 401, a wrong Host or Origin 403, a body over its
 *   procedure's limit 413, a body that stops arriving 408.
 * - Events arrive as server-sent events on `GET api/events`: each message's
 *   `event` is the event name and its `data` the JSON payload.
 * - Authentication: the URL the server prints carries the access token (kept between launches)
 *   (`/?token=...`); the first page load exchanges it for an HttpOnly,
 *   SameSite=Strict cookie named after the server's port and scoped to the
 *   app's path (`/s/<id>/`, derived from the token), and redirects there.
 *   The page then calls `api/...` relative to that path, so the cookie
 *   travels with every call and the event stream, and with nothing else.
 *   Scripts and tests send `Authorization: Bearer <token>` to the same
 *   procedures at the server's root (`/api/call/...`).
 */

export const CALL_PATH_PREFIX = '/api/call/';
export const EVENTS_PATH = '/api/events';
export const TOKEN_QUERY = 'token';
/** Where the page is served from: `/s/<id>/` (the cookie's path). */
export const APP_PATH_PREFIX = '/s/';

/**
 * The login cookie's name: one per server port, since browsers send a
 * 127.0.0.1 cookie to every port of it. Two servers on one machine then
 * keep two cookies, and neither logs the other out.
 */
export function tokenCookieName(port: number): string {
  return `ember_token_${port}`;
}
