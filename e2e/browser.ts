/**
 * Debian's Chromium through playwright-core: never a downloaded browser.
 * The flags keep it offline and quiet (no sync, no component updates, no
 * background requests) and let it run as root in a container.
 */

import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.EMBER_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumMissing(): string | null {
  return existsSync(CHROMIUM_PATH) ? null : `no Chromium at ${CHROMIUM_PATH} (install Debian's chromium package, or set EMBER_CHROMIUM)`;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** A page of the app at `url` (1360 x 1000), its errors and console errors collected in `errors`, once its first view has a heading. */
export async function openAppPage(browser: Browser, url: string, errors: string[]): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1360, height: 1000 } })).newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(url);
  await page.locator('main h1').waitFor();
  return page;
}
