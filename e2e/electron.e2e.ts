/**
 * Electron smoke test: the desktop app starts, its window shows the
 * workbench, and the preload's transport answers a contract call. Electron's
 * binary cannot be downloaded on every machine (not on the CI boxes of this
 * project), so the test finds the binary without importing `electron` (whose
 * index.js would try to download it) and skips, saying so, when it is absent.
 */

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ROOT } from './server.js';

/** The Electron executable the `electron` package installed, or why there is none. */
function electronBinary(): { path: string } | { missing: string } {
  const pkg = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return { missing: 'the Electron binary is not installed (node_modules/electron/path.txt is missing; `npx install-electron` downloads it where the network allows)' };
  const binary = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { path: binary } : { missing: `the Electron binary ${binary} is missing` };
}

function mainEntry(): string | null {
  for (const name of ['index.js', 'index.mjs', 'index.cjs']) {
    const file = join(ROOT, 'out', 'main', name);
    if (existsSync(file)) return file;
  }
  return null;
}

const binary = electronBinary();
const entry = mainEntry();
const skip = 'missing' in binary ? binary.missing : entry === null ? 'the desktop app is not built (out/main/index.js is missing: run `npx electron-vite build`)' : null;
if (skip !== null) console.log(`Electron smoke test skipped: ${skip}.`);

describe.skipIf(skip !== null)('desktop app (Electron)', () => {
  test('opens one window with the workbench, and the preload transport answers', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'ember-electron-'));
    const app = await _electron.launch({
      executablePath: (binary as { path: string }).path,
      args: ['--no-sandbox', '--disable-gpu', `--user-data-dir=${userData}`, entry!],
      cwd: ROOT,
    });
    try {
      const window = await app.firstWindow();
      await window.locator('main h1').waitFor({ timeout: 60_000 });
      expect(app.windows()).toHaveLength(1);
      const info = await window.evaluate(async () => {
        const transport = (window as unknown as { emberTransport?: { call(name: string, input: unknown): Promise<unknown> } }).emberTransport;
        return transport === undefined ? null : transport.call('app.info', {});
      });
      expect(info).toMatchObject({ ok: true, value: { mode: 'desktop' } });
      expect(await window.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
      await window.screenshot({ path: join(ROOT, 'e2e', 'screenshots', 'electron.png') });
    } finally {
      await app.close();
      rmSync(userData, { recursive: true, force: true });
    }
  });
});
