/**
 * Operator signatures in the app (issue 23), in Debian Chromium against
 * `emberbench serve`: a signing key created in the Signing keys view (its
 * file 0600 in the app's data folder, its secret never on the page nor in
 * the archive), the key trusted, an official bundle exported signed from a
 * trial's page, shown as signed by a trusted key, and verified by the CLI
 * with that key required.
 */

import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { WorkbenchApi } from '../src/shared/api/client.js';
import { emberbench } from './cli.js';
import { fillArchive, must, type ReviewFixture } from './review-setup.js';
import { openSession, SHOTS, skipReason, type AppSession } from './session.js';

const SIGNED_AT = '2026-12-02T09:30:00Z';
const missing = skipReason('signing');

describe.skipIf(missing !== null)('signing in browser mode', () => {
  let session: AppSession | undefined;
  let dir: string;
  let dataDir: string;
  let page: Page;
  let api: WorkbenchApi;
  let fx: ReviewFixture;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    // The app's data folder (XDG_CONFIG_HOME/EMBER Workbench), kept apart from the archive's folder.
    session = await openSession({ prefix: 'ember-signing-e2e-', ownDataFolder: true });
    ({ dir, api, pageErrors } = session);
    dataDir = join(dir, 'config', 'EMBER Workbench');
    fx = await fillArchive(api, [
      ['e2e-signed-static', 'static-shortest-path-v1'],
      ['e2e-signed-congestion', 'congestion-aware-v1'],
    ]);
    page = await session.openPage();
  });

  afterAll(() => session?.close());

  test('creates a key (0600, in the data folder, never shown) and trusts it', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Signing keys/ }).click();
    await page.getByRole('button', { name: 'Create signing key' }).click();
    const fingerprint = page.getByTestId('own-fingerprint');
    await fingerprint.waitFor({ timeout: 60_000 });
    const keyFile = join(dataDir, 'signing-key.json');
    expect(lstatSync(keyFile).mode & 0o777).toBe(0o600);
    const key = JSON.parse(readFileSync(keyFile, 'utf8')) as { public_key: string; secret: { seed: string } };
    expect(await page.getByTestId('own-public-key').textContent()).toBe(key.public_key);
    expect(await page.content()).not.toContain(key.secret.seed);
    expect(readFileSync(join(dir, 'archive.sqlite')).includes(Buffer.from(key.secret.seed))).toBe(false);

    await page.getByRole('button', { name: 'Trust this key' }).click();
    await page.getByTestId('trusted-key').first().waitFor();
    expect(await page.getByTestId('trusted-key').first().textContent()).toContain(await fingerprint.textContent());
    await page.screenshot({ path: join(SHOTS, 'signing-keys.png') });
    const status = must(await api['signing.status']({}), 'signing.status');
    expect(status.trusted.map((t) => t.publicKey)).toEqual([key.public_key]);
  });

  test('exports a signed bundle from a trial, shows its trusted signer, and the CLI verifies it requiring that key', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Trials/ }).click();
    await page.locator('.vbody [role="row"]', { hasText: fx.modelA }).first().click();
    const card = page.getByTestId('bundle-export');
    await card.waitFor({ timeout: 60_000 });
    await card.scrollIntoViewIfNeeded();
    const bundle = join(dir, 'signed-bundle');
    await card.getByLabel('New bundle folder').fill(bundle);
    await card.getByLabel("Sign the bundle with this app's key").check();
    await card.getByLabel('Signed at').fill(SIGNED_AT);
    await card.getByRole('button', { name: 'Export signed bundle' }).click();
    const notice = card.getByTestId('bundle-notice').filter({ hasText: /^Wrote/ });
    await notice.waitFor({ timeout: 120_000 });
    expect(await notice.getByTestId('signer-badge').getAttribute('data-state')).toBe('trusted');
    expect(await notice.textContent()).toContain('signed by trusted key this app');

    const pub = must(await api['signing.status']({}), 'signing.status').key!.publicKey;
    const { stdout } = await emberbench('bundle', 'verify', bundle, '--trust', pub, '--require-signature', '--json');
    const verified = JSON.parse(stdout) as { signatures: { public_key: string; signed_at: string; trusted: boolean }[] };
    expect(verified.signatures).toEqual([expect.objectContaining({ public_key: pub, signed_at: SIGNED_AT, trusted: true })]);

    await card.getByRole('button', { name: 'Verify bundle' }).click();
    const checked = card.getByTestId('bundle-notice').filter({ hasText: /^Verified/ });
    await checked.waitFor({ timeout: 120_000 });
    expect(await checked.getByTestId('signer-badge').getAttribute('data-state')).toBe('trusted');
    await card.screenshot({ path: join(SHOTS, 'signing-bundle.png') });

    // Revoked: the same bundle, verified again, is signed by a key no longer trusted.
    must(await api['trust.remove']({ publicKey: pub }), 'trust.remove');
    await card.getByRole('button', { name: 'Verify bundle' }).click();
    await card.getByTestId('bundle-notice').filter({ hasText: /^Verified/ }).getByTestId('signer-badge').and(page.locator('[data-state="untrusted"]')).waitFor({ timeout: 120_000 });
    expect(pageErrors).toEqual([]);
  });
});
