/**
 * The setup every browser e2e file shares: a test folder, `emberbench serve`
 * on an archive in it (startServe), Debian Chromium (launchChromium), a page
 * of the app whose errors are collected, the server's API, and the clean-up.
 * Each file says only what differs: what goes into the archive before serve
 * starts, its own app data folder, a fixed port, the window, which console
 * errors are the app's own answer to a refused call. The page is opened by
 * openPage, once the file has put into the archive what the page must show.
 */

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { WorkbenchApi } from '../src/shared/api/client.js';
import { chromiumMissing, launchChromium } from './browser.js';
import { apiOf } from './review-setup.js';
import { ROOT, startServe, type ServeProcess } from './server.js';

/** Where the e2e files write their screenshots (looked at by people, kept out of git). */
export const SHOTS = join(ROOT, 'e2e', 'screenshots');

/** Why the browser e2e of `what` cannot run here (said once on the console), or null when it can. */
export function skipReason(what: string): string | null {
  const missing = chromiumMissing();
  if (missing !== null) console.log(`${what} e2e skipped: ${missing}`);
  return missing;
}

export interface SessionOptions {
  /** The test folder's name prefix (mkdtemp). */
  readonly prefix: string;
  /** Fills the test folder before serve starts (CLI runs and imports) and names the archive; default: a new archive.sqlite there. */
  readonly prepare?: (dir: string) => Promise<string>;
  /** The app's data folder (access token, signing key) in the test folder (XDG_CONFIG_HOME), never the user's. */
  readonly ownDataFolder?: boolean;
  /** A fixed port, for a server that must come back on the same one (default: any free port). */
  readonly port?: number;
  /** The first page's context: the window (default 1360 x 1000), reduced motion, downloads. */
  readonly context?: BrowserContextOptions;
  /** Console errors that are the app's own answer to a refused call; any other console error is a bug, collected. 'none': console errors are not collected. */
  readonly expectedConsole?: RegExp | 'none';
}

export interface AppSession {
  readonly dir: string;
  readonly archive: string;
  /** The environment serve runs with. */
  readonly env: NodeJS.ProcessEnv;
  /** The running server; null between stopServe and startServe. */
  readonly server: ServeProcess | null;
  readonly api: WorkbenchApi;
  readonly browser: Browser;
  /** The current page (openPage replaces it) and its context. */
  readonly page: Page;
  readonly context: BrowserContext;
  /** Page errors and unexpected console errors of every page opened through the session. */
  readonly pageErrors: string[];
  /** Collects `p`'s errors with the session's (for pages opened by hand). */
  watch(p: Page): Page;
  /** A new context and page of the app (same options), at the server's URL once its first view has a heading; it becomes `page`. */
  openPage(): Promise<Page>;
  stopServe(): Promise<number | null>;
  /** serve again on the same archive, environment and port. */
  startServe(): Promise<ServeProcess>;
  close(): Promise<void>;
}

const DEFAULT_CONTEXT: BrowserContextOptions = { viewport: { width: 1360, height: 1000 } };

export async function openSession(options: SessionOptions): Promise<AppSession> {
  mkdirSync(SHOTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), options.prefix));
  let browser: Browser | null = null;
  let server: ServeProcess | null = null;
  try {
    const archive = options.prepare === undefined ? join(dir, 'archive.sqlite') : await options.prepare(dir);
    const env = options.ownDataFolder === true ? { ...process.env, XDG_CONFIG_HOME: join(dir, 'config') } : process.env;
    const start = () => startServe(archive, 60_000, env, options.port ?? 0);
    server = await start();
    browser = await launchChromium();
    const pageErrors: string[] = [];
    const expected = options.expectedConsole;
    const watch = (p: Page): Page => {
      p.on('pageerror', (e) => pageErrors.push(e.message));
      p.on('console', (m) => {
        if (m.type() !== 'error' || expected === 'none' || (expected !== undefined && expected.test(m.text()))) return;
        pageErrors.push(m.text());
      });
      return p;
    };
    const live = { server: server as ServeProcess | null, api: apiOf(server), browser, page: null as unknown as Page, context: null as unknown as BrowserContext };
    const session: AppSession = {
      dir,
      archive,
      env,
      pageErrors,
      watch,
      get server() {
        return live.server;
      },
      get api() {
        return live.api;
      },
      get browser() {
        return live.browser;
      },
      get page() {
        return live.page;
      },
      get context() {
        return live.context;
      },
      async openPage() {
        if (live.server === null) throw new Error('serve is stopped: startServe() first');
        live.context = await live.browser.newContext({ ...DEFAULT_CONTEXT, ...options.context });
        live.page = watch(await live.context.newPage());
        await live.page.goto(live.server.url);
        await live.page.locator('main h1').waitFor();
        return live.page;
      },
      async stopServe() {
        const code = (await live.server?.stop()) ?? null;
        live.server = null;
        return code;
      },
      async startServe() {
        live.server = await start();
        live.api = apiOf(live.server);
        return live.server;
      },
      async close() {
        await live.browser.close();
        await live.server?.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
    return session;
  } catch (e) {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
