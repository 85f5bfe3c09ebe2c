/**
 * An `archive.import` call as the browser-mode server receives it: its JSON
 * body, saved to a file as it arrived (src/node/server/request-body.ts). The
 * archive worker decodes it here, streaming: the `text` fields (the result
 * and its operational record, hundreds of MB for a large result) go to
 * files beside the body, never into one string; the file names are kept.
 * Then the files are read as the CLI reads them (inputs.ts: size limits,
 * UTF-8, the bound on a result's strings) and prepared like any import.
 *
 * The body must be exactly the contract's input: an object with
 * `fileName`, `text` and optionally `operational` ({fileName, text}), no
 * other key, no key twice. Anything else is a usage error naming the field.
 */

import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { JsonStringLengthGuard } from '../../core/json/string-limit.js';
import { checkedResultSignatures, type SignatureSet } from '../../core/signing/signatures.js';
import { MAX_RESULT_STRING_BYTES, readTextInput, stringTooLong } from '../inputs.js';
import type { DuplicateImport, PreparedImport } from '../archive/archive-io.js';
import { prepareImport } from './import-prepare.js';
import { Archive } from '../archive/archive.js';

const READ_BYTES = 1 << 20;
/** The longest file name kept (bytes as written). */
const MAX_NAME_BYTES = 4096;

/** The decoded body: the names, and where each text was written. */
export interface DecodedImportBody {
  readonly fileName: string;
  readonly resultFile: string;
  readonly operational?: { readonly fileName: string; readonly file: string };
  /** The result's detached signatures (`result sign`), when the import brings them. */
  readonly signature?: { readonly fileName: string; readonly file: string };
}

function bad(field: string, problem: string): UsageError {
  return new UsageError(`archive.import: ${field}: ${problem}`, { field });
}

/** Where a decoded string goes: a small buffer (names, keys) or a file (texts). */
interface StringSink {
  put(bytes: Uint8Array): void;
}

class MemorySink implements StringSink {
  private readonly parts: Buffer[] = [];
  private size = 0;
  constructor(
    private readonly field: string,
    private readonly max: number,
  ) {}
  put(bytes: Uint8Array): void {
    this.size += bytes.length;
    if (this.size > this.max) throw bad(this.field, `is longer than ${this.max} bytes`);
    this.parts.push(Buffer.from(bytes));
  }
  text(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }
}

class FileSink implements StringSink {
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  readonly fd: number;
  /** `refuse`: the check of a result's strings while it is decoded (the same as reading it back would make, but before the rest is written). */
  constructor(
    readonly path: string,
    private readonly check?: { readonly guard: JsonStringLengthGuard; readonly refuse: (at: number) => Error },
  ) {
    this.fd = openSync(path, 'wx', 0o600);
  }
  put(bytes: Uint8Array): void {
    if (this.check !== undefined) {
      const at = this.check.guard.push(bytes);
      if (at >= 0) throw this.check.refuse(at);
    }
    this.pending.push(Buffer.from(bytes));
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= READ_BYTES) this.flush();
  }
  flush(): void {
    if (this.pendingBytes > 0) writeSync(this.fd, Buffer.concat(this.pending, this.pendingBytes));
    this.pending.length = 0;
    this.pendingBytes = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

const SIMPLE_ESCAPES: Readonly<Record<number, number>> = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09 };

/** Reads the body byte by byte (in blocks): a strict JSON reader of just this shape. */
class BodyReader {
  private readonly buf = Buffer.allocUnsafe(READ_BYTES);
  /** A string's decoded bytes, handed to its sink when (nearly) full. */
  private readonly out = Buffer.allocUnsafe(READ_BYTES + 8);
  private len = 0;
  private pos = 0;
  private fileOffset = 0;
  constructor(private readonly fd: number) {}

  private fill(): boolean {
    this.len = readSync(this.fd, this.buf, 0, READ_BYTES, this.fileOffset);
    this.fileOffset += this.len;
    this.pos = 0;
    return this.len > 0;
  }

  /** The next byte, or -1 at the end. */
  next(): number {
    if (this.pos === this.len && !this.fill()) return -1;
    return this.buf[this.pos++]!;
  }

  /** The next byte that is not white space. */
  token(): number {
    for (;;) {
      const b = this.next();
      if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return b;
    }
  }

  expect(byte: number, field: string, what: string): void {
    if (this.token() !== byte) throw bad(field, `expected ${what} (the body is not the JSON input of archive.import)`);
  }

  /** A string's contents after its opening quote, decoded to UTF-8 bytes into `sink`. */
  string(field: string, sink: StringSink): void {
    const out = this.out;
    let n = 0;
    let high = -1; // a pending high surrogate
    const flush = (): void => {
      if (n > 0) sink.put(out.subarray(0, n));
      n = 0;
    };
    const codePoint = (cp: number): void => {
      if (cp < 0x80) out[n++] = cp;
      else if (cp < 0x800) {
        out[n++] = 0xc0 | (cp >> 6);
        out[n++] = 0x80 | (cp & 0x3f);
      } else if (cp < 0x10000) {
        out[n++] = 0xe0 | (cp >> 12);
        out[n++] = 0x80 | ((cp >> 6) & 0x3f);
        out[n++] = 0x80 | (cp & 0x3f);
      } else {
        out[n++] = 0xf0 | (cp >> 18);
        out[n++] = 0x80 | ((cp >> 12) & 0x3f);
        out[n++] = 0x80 | ((cp >> 6) & 0x3f);
        out[n++] = 0x80 | (cp & 0x3f);
      }
    };
    for (;;) {
      if (n >= READ_BYTES) flush();
      const b = this.next();
      if (b < 0) throw bad(field, 'the body ended inside a string');
      if (b !== 0x5c && high >= 0) throw bad(field, 'holds a lone UTF-16 surrogate (not Unicode text)');
      if (b === 0x22) break;
      if (b < 0x20) throw bad(field, 'holds an unescaped control character (not JSON)');
      if (b !== 0x5c) {
        out[n++] = b;
        continue;
      }
      const e = this.next();
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        if (high >= 0) throw bad(field, 'holds a lone UTF-16 surrogate (not Unicode text)');
        out[n++] = simple;
        continue;
      }
      if (e !== 0x75) throw bad(field, 'holds an invalid escape sequence (not JSON)');
      let unit = 0;
      for (let k = 0; k < 4; k++) {
        const h = this.next();
        const digit = h >= 0x30 && h <= 0x39 ? h - 0x30 : h >= 0x61 && h <= 0x66 ? h - 0x57 : h >= 0x41 && h <= 0x46 ? h - 0x37 : -1;
        if (digit < 0) throw bad(field, 'holds an invalid \\u escape (not JSON)');
        unit = unit * 16 + digit;
      }
      if (high >= 0) {
        if (unit < 0xdc00 || unit > 0xdfff) throw bad(field, 'holds a lone UTF-16 surrogate (not Unicode text)');
        codePoint(0x10000 + ((high - 0xd800) << 10) + (unit - 0xdc00));
        high = -1;
      } else if (unit >= 0xd800 && unit <= 0xdbff) high = unit;
      else if (unit >= 0xdc00 && unit <= 0xdfff) throw bad(field, 'holds a lone UTF-16 surrogate (not Unicode text)');
      else codePoint(unit);
    }
    flush();
  }

  /** An object of string fields (and `nested` objects), each key once; calls `value` for each key. */
  object(path: string, value: (key: string, field: string) => void): void {
    this.expect(0x7b, path === '' ? 'input' : path, 'an object');
    const seen = new Set<string>();
    let b = this.token();
    if (b === 0x7d) return;
    for (;;) {
      if (b !== 0x22) throw bad(path === '' ? 'input' : path, 'expected a key (the body is not the JSON input of archive.import)');
      const keySink = new MemorySink(path === '' ? 'input' : path, 64);
      this.string(path === '' ? 'input' : path, keySink);
      const key = keySink.text();
      const field = path === '' ? key : `${path}.${key}`;
      if (seen.has(key)) throw bad(field, 'is given twice');
      seen.add(key);
      this.expect(0x3a, field, "':'");
      value(key, field);
      b = this.token();
      if (b === 0x7d) return;
      if (b !== 0x2c) throw bad(field, "expected ',' or '}' (the body is not the JSON input of archive.import)");
      b = this.token();
    }
  }
}

/** An optional `{fileName, text}` field of the body, both parts required when it is there. */
function fileField<K extends 'operational' | 'signature'>(key: K, record: { fileName?: string; file?: string } | undefined): { [P in K]?: { fileName: string; file: string } } {
  if (record === undefined) return {};
  if (record.fileName === undefined) throw bad(`${key}.fileName`, 'is required');
  if (record.file === undefined) throw bad(`${key}.text`, 'is required');
  return { [key]: { fileName: record.fileName, file: record.file } } as { [P in K]?: { fileName: string; file: string } };
}

/** Decodes an `archive.import` body into `dir` (result.json, operational.json). */
export function decodeImportBody(bodyFile: string, dir: string): DecodedImportBody {
  const fd = openSync(bodyFile, 'r');
  const sinks: FileSink[] = [];
  try {
    const reader = new BodyReader(fd);
    let fileName: string | undefined;
    let resultFile: string | undefined;
    let operational: { fileName?: string; file?: string } | undefined;
    let signature: { fileName?: string; file?: string } | undefined;
    const stringField = (field: string, sink: StringSink): void => {
      if (reader.token() !== 0x22) throw bad(field, 'expected a string');
      reader.string(field, sink);
    };
    const nameField = (field: string): string => {
      const sink = new MemorySink(field, MAX_NAME_BYTES);
      stringField(field, sink);
      const name = sink.text();
      if (name.length === 0) throw bad(field, 'must not be empty');
      return name;
    };
    const textField = (field: string, file: string): string => {
      const check =
        field === 'text'
          ? { guard: new JsonStringLengthGuard(MAX_RESULT_STRING_BYTES), refuse: (at: number) => stringTooLong(fileName ?? 'the imported result', 'evaluation result', at, MAX_RESULT_STRING_BYTES) }
          : undefined;
      const sink = new FileSink(join(dir, file), check);
      sinks.push(sink);
      stringField(field, sink);
      sink.close();
      sinks.pop();
      return sink.path;
    };
    reader.object('', (key, field) => {
      if (key === 'fileName') fileName = nameField(field);
      else if (key === 'text') resultFile = textField(field, 'result.json');
      else if (key === 'operational') {
        const record: { fileName?: string; file?: string } = {};
        reader.object(field, (inner, innerField) => {
          if (inner === 'fileName') record.fileName = nameField(innerField);
          else if (inner === 'text') record.file = textField(innerField, 'operational.json');
          else throw bad(innerField, 'is not a field of archive.import');
        });
        operational = record;
      } else if (key === 'signature') {
        const record: { fileName?: string; file?: string } = {};
        reader.object(field, (inner, innerField) => {
          if (inner === 'fileName') record.fileName = nameField(innerField);
          else if (inner === 'text') record.file = textField(innerField, 'signature.json');
          else throw bad(innerField, 'is not a field of archive.import');
        });
        signature = record;
      } else throw bad(field, 'is not a field of archive.import');
    });
    if (reader.token() !== -1) throw bad('input', 'more follows the JSON object (the body is not the JSON input of archive.import)');
    if (fileName === undefined) throw bad('fileName', 'is required');
    if (resultFile === undefined) throw bad('text', 'is required');
    return { fileName, resultFile, ...fileField('operational', operational), ...fileField('signature', signature) };
  } finally {
    for (const sink of sinks) closeSync(sink.fd);
    closeSync(fd);
  }
}

/** The job of importing a saved body in the archive worker: the archive (opened read-only there) and the body file. */
export interface ImportBodyJob {
  readonly archivePath: string;
  readonly bodyFile: string;
  /** A folder for the decoded texts (the body's own private temporary folder). */
  readonly dir: string;
}

/** A prepared import from a saved body, with the result's signatures when the body brought them (checked against the result). */
export interface ImportBodyOutcome {
  readonly prepared: PreparedImport | DuplicateImport;
  readonly signatures: SignatureSet | null;
}

/**
 * Decodes the body and prepares the import as the CLI's files would be:
 * read within their limits, the signatures checked first (cheap; one that
 * fails refuses the whole import), then authenticated and packed.
 */
export function runImportBodyJob(job: ImportBodyJob): ImportBodyOutcome {
  const body = decodeImportBody(job.bodyFile, job.dir);
  const text = readTextInput(body.resultFile, 'evaluation result', body.fileName);
  const signatures =
    body.signature === undefined ? null : checkedResultSignatures(readTextInput(body.signature.file, 'signature file', body.signature.fileName), text, body.signature.fileName);
  const operational =
    body.operational === undefined ? undefined : { fileName: body.operational.fileName, text: readTextInput(body.operational.file, 'operational record', body.operational.fileName) };
  const archive = Archive.open(job.archivePath, { mode: 'read' });
  try {
    return { prepared: prepareImport(archive, body.fileName, text, operational), signatures };
  } finally {
    archive.close();
  }
}
