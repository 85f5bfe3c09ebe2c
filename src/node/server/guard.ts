/**
 * Who may talk to the browser-mode server: only a page the server itself
 * served, on this machine. Three checks, each answering why it refused:
 *
 * - `Host` must be the server's own address (127.0.0.1:PORT or
 *   localhost:PORT): a DNS-rebinding page reaches the server under a foreign
 *   host name and is refused (403).
 * - `Origin`, when the browser sends one, must be the server's own origin
 *   (403 otherwise): another site's script cannot call the API.
 * - The access token (kept between launches), from the HttpOnly cookie set on the first page
 *   load (named after the port: tokenCookieName) or an
 *   `Authorization: Bearer` header (scripts, tests); anything else is 401.
 */

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { tokenCookieName } from '../../shared/api/http.js';

export type GuardVerdict = { readonly ok: true } | { readonly ok: false; readonly status: 401 | 403; readonly reason: string };

export function allowedHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function allowedOrigins(port: number): ReadonlySet<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

/** Constant-time comparison of a presented token with the launch token. */
export function tokenMatches(presented: string | undefined, token: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(token, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The token a request presents, from this server's cookie or a Bearer header. */
export function presentedToken(req: IncomingMessage, port: number): string | undefined {
  const auth = req.headers.authorization;
  if (auth !== undefined && auth.startsWith('Bearer ')) return auth.slice('Bearer '.length).trim();
  return cookieValue(req.headers.cookie, tokenCookieName(port));
}

/**
 * Host and Origin checks (403); the token check is the caller's, since the
 * first page load carries it in the URL. The reasons never repeat the
 * request's values: an answer must not reflect what a hostile page sent.
 */
export function checkSameOrigin(req: IncomingMessage, port: number): GuardVerdict {
  const host = req.headers.host;
  if (host === undefined || !allowedHosts(port).has(host.toLowerCase())) {
    return { ok: false, status: 403, reason: `the request's Host is not this server: open the address that \`emberbench serve\` printed (127.0.0.1:${port})` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedOrigins(port).has(origin.toLowerCase())) {
    return { ok: false, status: 403, reason: `the request comes from a page of another origin: only the workbench's own page (http://127.0.0.1:${port}) may call it` };
  }
  return { ok: true };
}
