// Operator keys and signatures through the command line (in process, through
// main(), so each command costs no process start): keys create/show, signed
// bundles and results, co-signing, and every tamper refused with its exit
// code and a message naming what failed.
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestText } from '../../src/core/eval/manifest.js';
import { captureIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { buildPack } from '../../src/node/pack.js';
import { buildTinyResult } from '../eval/kit.js';
import { TINY_SUITE } from '../eval/kit.js';

const AT = '2026-12-02T09:30:00Z';
let scratch: string;
let pack: string;
let resultA: string;
let resultText: string;
let keyA: string;
let keyB: string;
let pubA: string;
let pubB: string;
let signed: string;
let unsigned: string;

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string; json: Record<string, unknown> }> {
  const io = captureIO();
  const code = await main([...argv, '--json'], io);
  const text = code === 0 ? io.out() : io.err();
  return { code, out: io.out(), err: io.err(), json: JSON.parse(text) as Record<string, unknown> };
}

async function refused(code: number, pattern: RegExp, ...argv: string[]): Promise<void> {
  const r = await cli(...argv);
  expect(r.code, r.err).toBe(code);
  expect((r.json.error as { message: string }).message).toMatch(pattern);
}

function filesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else out.set(path, readFileSync(join(dir, path), 'latin1'));
    }
  };
  walk('');
  return out;
}

function copyOf(dir: string, name: string): string {
  const to = join(scratch, name);
  cpSync(dir, to, { recursive: true });
  return to;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-signing-'));
  const a = await buildTinyResult(['1', '7'], 'congestion-aware-v1', 'congestion-aware-v1');
  const manifest = join(scratch, 'manifest.json');
  writeFileSync(manifest, manifestText(a.manifest));
  pack = join(scratch, 'pack');
  await buildPack(TINY_SUITE, manifest, pack);
  resultA = join(scratch, 'a.json');
  resultText = a.text;
  writeFileSync(resultA, a.text);
  keyA = join(scratch, 'a.key');
  keyB = join(scratch, 'b.key');
  pubA = (await cli('keys', 'create', '--out', keyA)).json.public_key as string;
  pubB = (await cli('keys', 'create', '--out', keyB)).json.public_key as string;
  signed = join(scratch, 'signed');
  unsigned = join(scratch, 'unsigned');
  const made = await cli('bundle', 'create', '--pack', pack, '--result', resultA, '--resamples', '50', '--out', signed, '--sign-key', keyA, '--signed-at', AT);
  expect(made.code, made.err).toBe(0);
  expect(made.json.signed).toBe(true);
  expect((await cli('bundle', 'create', '--pack', pack, '--result', resultA, '--resamples', '50', '--out', unsigned)).code).toBe(0);
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('keys', () => {
  it('creates a key file with mode 0600, shows its public key and fingerprint, never the secret', async () => {
    expect(lstatSync(keyA).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(keyA, 'utf8')) as { public_key: string; secret: { seed: string } };
    const shown = await cli('keys', 'show', keyA);
    expect(shown.json).toMatchObject({ public_key: pubA, sealed: false, fingerprint: expect.stringMatching(/^([0-9a-f]{4}:){7}[0-9a-f]{4}$/) });
    expect(shown.out).not.toContain(file.secret.seed);
    const human = captureIO();
    expect(await main(['keys', 'show', keyA], human)).toBe(0);
    expect(human.out()).not.toContain(file.secret.seed);
    expect(pubA).not.toBe(pubB);
  });

  it('never replaces a key file without --force, and --force replaces only a regular file', async () => {
    const before = readFileSync(keyA, 'utf8');
    await refused(6, /exists \(use --force/, 'keys', 'create', '--out', keyA);
    expect(readFileSync(keyA, 'utf8')).toBe(before);
    const dir = join(scratch, 'a-folder');
    mkdirSync(dir);
    await refused(6, /a directory/, 'keys', 'create', '--out', dir, '--force');
    const link = join(scratch, 'link.key');
    symlinkSync(keyA, link);
    await refused(6, /symbolic link/, 'keys', 'create', '--out', link, '--force');
    expect(readFileSync(keyA, 'utf8')).toBe(before);
    const replaced = join(scratch, 'replaced.key');
    writeFileSync(replaced, 'old', { mode: 0o644 });
    expect((await cli('keys', 'create', '--out', replaced, '--force')).code).toBe(0);
    expect(lstatSync(replaced).mode & 0o777).toBe(0o600);
  });

  it('seals a key with a passphrase: signing needs it, a wrong one is refused (exit 2)', async () => {
    const sealed = join(scratch, 'sealed.key');
    process.env.EMBER_TEST_PASSPHRASE = 'correct horse battery staple';
    process.env.EMBER_TEST_WRONG = 'not it';
    try {
      expect((await cli('keys', 'create', '--out', sealed, '--passphrase-env', 'EMBER_TEST_PASSPHRASE')).json.sealed).toBe(true);
      const text = readFileSync(sealed, 'utf8');
      expect(text).not.toContain('"seed"');
      const res = join(scratch, 'sealed-result.json');
      writeFileSync(res, resultText);
      await refused(2, /sealed with a passphrase/, 'result', 'sign', '--result', res, '--key', sealed, '--signed-at', AT);
      await refused(2, /^--passphrase-env: wrong passphrase/, 'result', 'sign', '--result', res, '--key', sealed, '--signed-at', AT, '--passphrase-env', 'EMBER_TEST_WRONG');
      await refused(2, /EMBER_TEST_UNSET is not set/, 'result', 'sign', '--result', res, '--key', sealed, '--signed-at', AT, '--passphrase-env', 'EMBER_TEST_UNSET');
      const ok = await cli('result', 'sign', '--result', res, '--key', sealed, '--signed-at', AT, '--passphrase-env', 'EMBER_TEST_PASSPHRASE');
      expect(ok.code, ok.err).toBe(0);
      const pub = (await cli('keys', 'show', sealed)).json.public_key as string;
      expect((await cli('result', 'verify', '--result', res, '--trust', pub, '--require-signature')).code).toBe(0);
    } finally {
      delete process.env.EMBER_TEST_PASSPHRASE;
      delete process.env.EMBER_TEST_WRONG;
    }
  }, 120_000);
});

describe('signed bundles', () => {
  it('signing changes no file: the signed bundle is the unsigned one plus signatures.json', () => {
    const a = filesOf(signed);
    const b = filesOf(unsigned);
    expect([...a.keys()].filter((f) => !b.has(f))).toEqual(['signatures.json']);
    for (const [file, bytes] of b) expect(a.get(file) === bytes, file).toBe(true);
  });

  it('verifies: each signature valid, its key trusted only when listed; an unsigned bundle reports as before', async () => {
    const plain = await cli('bundle', 'verify', unsigned);
    expect(plain.code).toBe(0);
    expect(plain.json).not.toHaveProperty('signatures');
    const untrusted = await cli('bundle', 'verify', signed);
    expect(untrusted.json.signatures).toEqual([{ public_key: pubA, fingerprint: expect.any(String), signed_at: AT, valid: true, trusted: false }]);
    const trusted = await cli('bundle', 'verify', signed, '--trust', keyA, '--require-signature');
    expect(trusted.code, trusted.err).toBe(0);
    expect(trusted.json.signatures).toMatchObject([{ public_key: pubA, trusted: true }]);
    await refused(5, /no valid signature by a trusted key: it is signed by .*no key is trusted/, 'bundle', 'verify', signed, '--require-signature');
    await refused(5, /no valid signature by a trusted key: its signatures .* are by keys not on the trust list/, 'bundle', 'verify', signed, '--trust', pubB, '--require-signature');
    await refused(5, /no valid signature by a trusted key: it is not signed/, 'bundle', 'verify', unsigned, '--trust', pubA, '--require-signature');
  });

  it('co-signs with bundle sign, changing nothing signed; a key signs once', async () => {
    const dir = copyOf(signed, 'cosigned');
    const before = filesOf(dir);
    const r = await cli('bundle', 'sign', '--bundle', dir, '--key', keyB, '--signed-at', '2026-12-03T10:00:00Z');
    expect(r.code, r.err).toBe(0);
    const after = filesOf(dir);
    for (const [file, bytes] of before) if (file !== 'signatures.json') expect(after.get(file) === bytes, file).toBe(true);
    const v = await cli('bundle', 'verify', dir, '--trust', pubB, '--require-signature');
    expect(v.code, v.err).toBe(0);
    expect((v.json.signatures as { public_key: string; trusted: boolean }[]).map((s) => [s.public_key, s.trusted]).sort()).toEqual(
      [[pubA, false], [pubB, true]].sort(),
    );
    await refused(3, /already holds a signature by key/, 'bundle', 'sign', '--bundle', dir, '--key', keyB, '--signed-at', AT);
  });

  it('refuses every tamper, naming what failed', async () => {
    // A byte of a listed file (exit 3, the file named).
    const byte = copyOf(signed, 't-byte');
    const score = join(byte, 'model-1', 'score.txt');
    writeFileSync(score, readFileSync(score, 'utf8').replace('1', '2'));
    await refused(3, /model-1\/score\.txt: changed/, 'bundle', 'verify', byte, '--trust', pubA);

    // The model ID relabelled in bundle.json (exit 5, signatures.json named).
    const relabel = copyOf(signed, 't-model');
    const index = join(relabel, 'bundle.json');
    writeFileSync(index, readFileSync(index, 'utf8').replace('"model_id":"congestion-aware-v1"', '"model_id":"congestion-aware-v2"'));
    await refused(5, /signatures\.json: signs a bundle\.json with sha256 [0-9a-f]{64}, but this bundle\.json has sha256/, 'bundle', 'verify', relabel);

    // The signature itself (exit 5, the key named).
    const sig = copyOf(signed, 't-sig');
    const sigFile = join(sig, 'signatures.json');
    const set = readFileSync(sigFile, 'utf8');
    const flipped = set.replace(/"signature":"(.)/, (_m, c: string) => `"signature":"${c === '0' ? '1' : '0'}`);
    writeFileSync(sigFile, flipped);
    await refused(5, /the signature by key ([0-9a-f]{4}:){7}[0-9a-f]{4} \(signed_at 2026-12-02T09:30:00Z\) is invalid/, 'bundle', 'verify', sig);

    // Another key claimed for the signature (exit 5).
    const other = copyOf(signed, 't-key');
    writeFileSync(join(other, 'signatures.json'), set.replace(pubA, pubB));
    await refused(5, /is invalid/, 'bundle', 'verify', other, '--trust', pubB);

    // The signed time changed (exit 5).
    const time = copyOf(signed, 't-time');
    writeFileSync(join(time, 'signatures.json'), set.replace(AT, '2020-01-01T00:00:00Z'));
    await refused(5, /is invalid/, 'bundle', 'verify', time);

    // A signature copied onto another bundle (exit 5).
    const copied = join(scratch, 't-copied');
    expect((await cli('bundle', 'create', '--pack', pack, '--result', resultA, '--resamples', '60', '--out', copied)).code).toBe(0);
    writeFileSync(join(copied, 'signatures.json'), set);
    await refused(5, /signatures belong to another bundle/, 'bundle', 'verify', copied, '--trust', pubA);

    // A malformed signature file (exit 3).
    const bad = copyOf(signed, 't-bad');
    writeFileSync(join(bad, 'signatures.json'), set.replace('"version":1', '"version":2'));
    await refused(3, /signatures\.json: version: is 2/, 'bundle', 'verify', bad);
  }, 120_000);

  it('refuses a result relabelled and re-bundled under another key when a trusted signature is required', async () => {
    const forged = join(scratch, 'forged.json');
    writeFileSync(forged, resultText.split('"model_id":"congestion-aware-v1"').join('"model_id":"someone-else-v1"'));
    const out = join(scratch, 'forged-bundle');
    const made = await cli('bundle', 'create', '--pack', pack, '--result', forged, '--resamples', '50', '--out', out, '--sign-key', keyB, '--signed-at', AT);
    // The relabelled result still authenticates by replay (what the issue is about): only the signature tells it apart.
    expect(made.code, made.err).toBe(0);
    expect((await cli('bundle', 'verify', out, '--trust', pubA)).json.signatures).toMatchObject([{ public_key: pubB, trusted: false }]);
    await refused(5, /no valid signature by a trusted key: its signatures .* are by keys not on the trust list/, 'bundle', 'verify', out, '--trust', pubA, '--require-signature');
  }, 60_000);

  it('needs --signed-at with a key, and checks it; report html names the signers', async () => {
    await refused(2, /--signed-at: required with --sign-key/, 'bundle', 'create', '--pack', pack, '--result', resultA, '--out', join(scratch, 'n1'), '--sign-key', keyA);
    await refused(2, /--signed-at: must be a UTC time/, 'bundle', 'sign', '--bundle', signed, '--key', keyA, '--signed-at', '2026-02-30T00:00:00Z');
    const html = join(scratch, 'report.html');
    expect((await cli('report', 'html', '--bundle', signed, '--out', html)).code).toBe(0);
    const text = readFileSync(html, 'utf8');
    expect(text).toContain('Signed by');
    expect(text).toContain(pubA);
    const plainHtml = join(scratch, 'plain.html');
    expect((await cli('report', 'html', '--bundle', unsigned, '--out', plainHtml)).code).toBe(0);
    expect(readFileSync(plainHtml, 'utf8')).not.toContain('Signed by');
  }, 60_000);
});

describe('signed results', () => {
  it('signs a result beside it, co-signs, verifies, and refuses a changed result or a copied signature', async () => {
    const res = join(scratch, 'r.json');
    writeFileSync(res, resultText);
    const first = await cli('result', 'sign', '--result', res, '--key', keyA, '--signed-at', AT);
    expect(first.code, first.err).toBe(0);
    expect(first.json.signature_file).toBe(join(scratch, 'r.sig.json'));
    expect((await cli('result', 'sign', '--result', res, '--key', keyB, '--signed-at', 'now')).code).toBe(0);
    expect(readFileSync(res, 'utf8')).toBe(resultText);
    const v = await cli('result', 'verify', '--result', res, '--trust', pubA, '--require-signature');
    expect(v.code, v.err).toBe(0);
    expect((v.json.signatures as { trusted: boolean; signed_at: string }[]).map((s) => s.trusted).sort()).toEqual([false, true]);

    const plain = join(scratch, 'plain.json');
    writeFileSync(plain, resultText);
    expect((await cli('result', 'verify', '--result', plain)).json).toMatchObject({ signed: false, signatures: [] });
    await refused(5, /plain\.json: no valid signature by a trusted key: it is not signed/, 'result', 'verify', '--result', plain, '--trust', pubA, '--require-signature');

    const changed = join(scratch, 'changed.json');
    writeFileSync(changed, resultText.replace('"congestion-aware-v1"', '"congestion-aware-v2"'));
    cpSync(join(scratch, 'r.sig.json'), join(scratch, 'changed.sig.json'));
    await refused(5, /changed\.sig\.json: signs a result file with sha256 [0-9a-f]{64}, but this result file has sha256/, 'result', 'verify', '--result', changed);
    const other = join(scratch, 'other.json');
    writeFileSync(other, `${resultText} `.trimEnd().replace('"congestion-aware-v1"', '"congestion-aware-v3"'));
    await refused(5, /signatures belong to another result/, 'result', 'verify', '--result', other, '--signature', join(scratch, 'r.sig.json'));
    await refused(5, /holds result signatures, not bundle signatures/, 'bundle', 'verify', copyWithSignatures(join(scratch, 'r.sig.json')));
  }, 60_000);
});

function copyWithSignatures(setFile: string): string {
  const dir = copyOf(unsigned, `with-${Math.floor(lstatSync(setFile).ino)}`);
  cpSync(setFile, join(dir, 'signatures.json'));
  return dir;
}
