import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError, ValidationError } from '../../core/errors.js';
import { decodeImportBody } from './import-body.js';

const scratch = mkdtempSync(join(tmpdir(), 'ember-import-body-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;

/** Decodes `body` in a fresh folder; the decoded texts read back. */
function decode(body: string): { fileName: string; text: string; operational?: { fileName: string; text: string }; signature?: { fileName: string; text: string } } {
  const dir = mkdtempSync(join(scratch, `b${n++}-`));
  writeFileSync(join(dir, 'body.json'), body);
  const decoded = decodeImportBody(join(dir, 'body.json'), dir);
  return {
    fileName: decoded.fileName,
    text: readFileSync(decoded.resultFile, 'utf8'),
    ...(decoded.operational === undefined ? {} : { operational: { fileName: decoded.operational.fileName, text: readFileSync(decoded.operational.file, 'utf8') } }),
    ...(decoded.signature === undefined ? {} : { signature: { fileName: decoded.signature.fileName, text: readFileSync(decoded.signature.file, 'utf8') } }),
  };
}

function refusal(body: string): Error {
  try {
    decode(body);
  } catch (error) {
    return error as Error;
  }
  throw new Error('decoded');
}

describe('decodeImportBody', () => {
  it('decodes what JSON.stringify wrote, in any key order and spacing, across read blocks', () => {
    // Over two read blocks (1 MiB) of text with every kind of escape, astral characters among them.
    const text = `{"a":"\\u0000\\"\\\\/\\b\\f\\n\\r\\t é €"} 😀 ${'x'.repeat(1_100_000)} \u2028 "quoted" \\ end`;
    const input = { fileName: 'résultat 😀.json', text, operational: { fileName: 'r.operational.json', text: '{"k":"v"}\n' } };
    expect(decode(JSON.stringify(input))).toEqual(input);
    expect(decode(JSON.stringify({ text: 'abc', fileName: 'r.json' }, null, 2))).toEqual({ fileName: 'r.json', text: 'abc' });
    expect(decode(' { "operational" : { "text" : "" , "fileName" : "o" } , "text" : "t" , "fileName" : "f" } ')).toEqual({ fileName: 'f', text: 't', operational: { fileName: 'o', text: '' } });
  });

  it("decodes a result's detached signatures (result sign) beside it", () => {
    const input = { fileName: 'r.json', text: '{"r":1}\n', signature: { fileName: 'r.sig.json', text: '{"format":"x"}\n' } };
    expect(decode(JSON.stringify(input))).toEqual(input);
  });

  it('refuses anything that is not exactly the input of archive.import, naming the field', () => {
    const cases: [string, string, string][] = [
      ['{"fileName":"a","text":"b","surprise":1}', 'surprise', 'archive.import: surprise: is not a field of archive.import'],
      ['{"fileName":"a","text":"b","fileName":"c"}', 'fileName', 'archive.import: fileName: is given twice'],
      ['{"text":"b"}', 'fileName', 'archive.import: fileName: is required'],
      ['{"fileName":"a"}', 'text', 'archive.import: text: is required'],
      ['{"fileName":"","text":"b"}', 'fileName', 'archive.import: fileName: must not be empty'],
      ['{"fileName":"a","text":5}', 'text', 'archive.import: text: expected a string'],
      ['{"fileName":"a","text":"b","operational":{"text":"x"}}', 'operational.fileName', 'archive.import: operational.fileName: is required'],
      ['{"fileName":"a","text":"b","signature":{"fileName":"s"}}', 'signature.text', 'archive.import: signature.text: is required'],
      ['{"fileName":"a","text":"\\ud800"}', 'text', 'archive.import: text: holds a lone UTF-16 surrogate (not Unicode text)'],
      ['{"fileName":"a","text":"b\\x"}', 'text', 'archive.import: text: holds an invalid escape sequence (not JSON)'],
      ['{"fileName":"a","text":"b"} {}', 'input', 'archive.import: input: more follows the JSON object (the body is not the JSON input of archive.import)'],
      ['{"fileName":"a","text":"b', 'text', 'archive.import: text: the body ended inside a string'],
      ['[]', 'input', 'archive.import: input: expected an object (the body is not the JSON input of archive.import)'],
    ];
    for (const [body, field, message] of cases) {
      const error = refusal(body);
      expect(error, body).toBeInstanceOf(UsageError);
      expect(error.message, body).toBe(message);
      expect((error as UsageError).field, body).toBe(field);
    }
  });

  it('refuses a result with a string over 1 MiB while decoding it, with the message reading it would give', () => {
    const text = `{"model_id":"${'a'.repeat(1024 * 1024 + 1)}"}`;
    const error = refusal(JSON.stringify({ fileName: 'huge.json', text }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('huge.json: evaluation result has a string of more than 1048576 bytes (1 MiB) (from byte 12), the most one string of it may hold: it was not made by emberbench');
  });
});
