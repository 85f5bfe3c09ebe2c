/**
 * axe-core in the app's page with its Content-Security-Policy left on: the
 * CSP refuses inline scripts (script-src 'self'), so axe's source is run
 * through the DevTools protocol (page.evaluate), which the CSP does not
 * govern, exactly as a tester's console would. Only WCAG 2.x A and AA rules
 * (2.0, 2.1, 2.2) are run.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'] as const;

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: readonly string[];
}

/** Every WCAG A/AA violation axe finds in the page as it is now, one line each ("id (impact): help: targets"). */
export async function axeViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (loaded !== true) await page.evaluate(`${AXE_SOURCE}\n;void 0`);
  const violations = (await page.evaluate(`window.axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_TAGS)} }, resultTypes: ['violations'] })
    .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 6).map((n) => n.target.join(' ') + (n.failureSummary ? ' [' + n.failureSummary.replace(/\\s+/g, ' ').slice(0, 220) + ']' : '')) })))`)) as AxeViolation[];
  return violations.map((v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help}: ${v.targets.join(' | ')}`);
}

/**
 * Presses Tab (Shift+Tab when `back`) until the focused element matches
 * `selector` (and, given `text`, its text content matches that too), at most
 * `limit` times; fails naming the last focus.
 */
export async function tabTo(page: Page, selector: string, { back = false, limit = 120, text }: { back?: boolean; limit?: number; text?: RegExp } = {}): Promise<void> {
  const probe = `(() => { const e = document.activeElement; return !!e && e.matches(${JSON.stringify(selector)}) && ${text === undefined ? 'true' : `${text.toString()}.test(e.textContent || '')`}; })()`;
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if ((await page.evaluate(probe)) === true) return;
  }
  throw new Error(`${limit} presses of Tab did not reach ${selector}${text === undefined ? '' : ` with text ${text}`}; focus is on ${await focused(page)}`);
}

/** The focused element, as a short description for messages and checks. */
export function focused(page: Page): Promise<string> {
  return page.evaluate(`(() => { const e = document.activeElement; if (!e) return 'nothing'; return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '') + ' "' + (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 60) + '"'; })()`) as Promise<string>;
}
