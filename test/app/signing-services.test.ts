// The app's signing services over a real archive: the key (0600 in the data
// folder, never in the archive, never answered), the trust list, and a
// signed result imported with its signatures: shown as signed by a trusted
// key, untrusted once the key is removed, and a signature of another result
// refusing the whole import.
import { lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../src/node/services/dispatch.js';
import { readKeyFile, unlockKey } from '../../src/node/signing/key-file.js';
import { signResultFile } from '../../src/node/signing/signature-files.js';
import { buildTinyResult, TINY_SUITE } from '../eval/kit.js';
import { openServices, tempDir } from '../archive/helpers.js';

const tmp = tempDir('ember-signing-services-');
afterAll(() => tmp.remove());

describe('signing services', () => {
  it('keeps the key out of the archive and the answers, and imports a signed result with its trust state', async () => {
    const archivePath = join(tmp.dir, 'archive.sqlite');
    const h = await openServices(archivePath);
    try {
      const { handlers } = h.services;
      expect(await handlers['signing.status']({})).toMatchObject({ key: null, trusted: [] });
      const status = await handlers['signing.createKey']({ replace: false });
      const keyFile = join(tmp.dir, 'signing-key.json');
      expect(status.keyFile).toBe(keyFile);
      expect(lstatSync(keyFile).mode & 0o777).toBe(0o600);
      const seed = (JSON.parse(readFileSync(keyFile, 'utf8')) as { secret: { seed: string } }).secret.seed;
      expect(JSON.stringify(status)).not.toContain(seed);
      expect(await dispatch(handlers, 'signing.createKey', {})).toMatchObject({ ok: false, error: { kind: 'output', field: 'replace' } });
      expect(await dispatch(handlers, 'signing.importKey', { text: '{"format":"nope"}' })).toMatchObject({ ok: false, error: { kind: 'validation' } });
      const publicKey = status.key!.publicKey;
      expect((await handlers['trust.add']({ publicKey, label: 'lab' })).trusted).toEqual([{ publicKey, fingerprint: status.key!.fingerprint, label: 'lab' }]);

      // A result signed with the app's key file (as `result sign` would), imported with its signature file.
      expect((await handlers['suites.add']({ dir: TINY_SUITE })).scenarioCount).toBeGreaterThan(0);
      const built = await buildTinyResult(['1'], 'congestion-aware-v1', 'signed-model');
      const resultPath = join(tmp.dir, 'r.json');
      writeFileSync(resultPath, built.text);
      const signer = { secretKey: unlockKey(readKeyFile(keyFile), null, keyFile), signedAt: '2026-12-02T09:30:00Z' };
      const { path: sigPath } = await signResultFile(resultPath, signer);
      const sigText = readFileSync(sigPath, 'utf8');

      // A signature of another result refuses the whole import.
      const other = built.text.replace('"signed-model"', '"other-model"');
      const refused = await dispatch(handlers, 'archive.import', { fileName: 'o.json', text: other, signature: { fileName: 'r.sig.json', text: sigText } });
      expect(refused).toMatchObject({ ok: false, error: { kind: 'mismatch', message: expect.stringMatching(/r\.sig\.json: signs a result file with sha256/) } });
      expect((await handlers['trials.list']({ sort: 'created', direction: 'desc', filter: {}, offset: 0, limit: 10 })).total).toBe(0);

      const { trialId } = await handlers['archive.import']({ fileName: 'r.json', text: built.text, signature: { fileName: 'r.sig.json', text: sigText } });
      const detail = await handlers['trials.get']({ trialId });
      expect(detail.trial.signers).toEqual([{ publicKey, fingerprint: status.key!.fingerprint, signedAt: '2026-12-02T09:30:00Z', trusted: true, label: 'lab' }]);
      const listed = await handlers['trials.list']({ sort: 'created', direction: 'desc', filter: {}, offset: 0, limit: 10 });
      expect(listed.rows[0]!.signers.map((s) => s.trusted)).toEqual([true]);

      // Revoked: the same trial, its key no longer trusted.
      await handlers['trust.remove']({ publicKey });
      expect((await handlers['trials.get']({ trialId })).trial.signers.map((s) => [s.trusted, s.label])).toEqual([[false, null]]);
      // The secret never reached the archive.
      expect(readFileSync(archivePath).includes(Buffer.from(seed))).toBe(false);
    } finally {
      await h.services.dispose();
    }
  }, 120_000);
});
