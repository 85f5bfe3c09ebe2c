import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutputError } from '../core/errors.js';
import { checkOutputPath, writeOutputFile, type WriteOptions } from './files.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ember-files-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const plain: WriteOptions = { force: false, inputs: [] };

function entries(path = dir): string[] {
  return readdirSync(path).sort();
}

async function outputError(promise: Promise<unknown>): Promise<OutputError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutputError);
  expect((error as OutputError).kind).toBe('output');
  return error as OutputError;
}

function errnoError(code: string): Error {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

describe('writeOutputFile', () => {
  it('writes a new file with exactly the given bytes and leaves no temporary file', async () => {
    const out = join(dir, 'record.json');
    await writeOutputFile(out, '{"a":1}\n', plain);
    expect(readFileSync(out, 'utf8')).toBe('{"a":1}\n');
    expect(entries()).toEqual(['record.json']);
  });

  it('refuses an existing file without --force and keeps its bytes', async () => {
    const out = join(dir, 'record.json');
    writeFileSync(out, 'old');
    const error = await outputError(writeOutputFile(out, 'new', plain));
    expect(error.message).toBe(`output file exists (use --force to replace it): ${out}`);
    expect(readFileSync(out, 'utf8')).toBe('old');
    expect(entries()).toEqual(['record.json']);
  });

  it('replaces an existing file with --force', async () => {
    const out = join(dir, 'record.json');
    writeFileSync(out, 'old');
    await writeOutputFile(out, 'new', { force: true, inputs: [] });
    expect(readFileSync(out, 'utf8')).toBe('new');
    expect(entries()).toEqual(['record.json']);
  });

  it('never creates a missing parent directory', async () => {
    const out = join(dir, 'missing', 'record.json');
    const error = await outputError(writeOutputFile(out, 'x', { force: true, inputs: [] }));
    expect(error.message).toBe(`output directory does not exist: ${join(dir, 'missing')}`);
    expect(entries()).toEqual([]);
  });

  it('refuses a parent that is a file', async () => {
    writeFileSync(join(dir, 'file'), 'x');
    const error = await outputError(writeOutputFile(join(dir, 'file', 'out.json'), 'x', plain));
    expect(error.message).toMatch(/^output parent is not a directory: /);
  });

  it('refuses an output that is a directory, even with --force', async () => {
    mkdirSync(join(dir, 'sub'));
    for (const force of [false, true]) {
      const error = await outputError(writeOutputFile(join(dir, 'sub'), 'x', { force, inputs: [] }));
      expect(error.message).toBe(`output is a directory: ${join(dir, 'sub')}`);
    }
    expect(entries()).toEqual(['sub']);
    expect(entries(join(dir, 'sub'))).toEqual([]);
  });

  it('refuses an output path with a trailing separator', async () => {
    await outputError(writeOutputFile(join(dir, 'new') + '/', 'x', plain));
    expect(entries()).toEqual([]);
  });

  it('refuses an input file as output even with --force: same path, relative path, symlink, hard link', async () => {
    const input = join(dir, 'scenario.json');
    writeFileSync(input, 'input');
    symlinkSync(input, join(dir, 'alias.json'));
    linkSync(input, join(dir, 'hard.json'));
    const rel = relative(process.cwd(), input);
    for (const out of [input, rel, join(dir, 'alias.json'), join(dir, 'hard.json'), join(dir, '.', 'scenario.json')]) {
      const error = await outputError(writeOutputFile(out, 'x', { force: true, inputs: [input] }));
      expect(error.message).toBe(`output ${out} is the input file ${input}; inputs are never written`);
    }
    // The input is compared by identity, also when given by another name.
    await outputError(writeOutputFile(input, 'x', { force: true, inputs: [join(dir, 'alias.json')] }));
    expect(readFileSync(input, 'utf8')).toBe('input');
    expect(entries()).toEqual(['alias.json', 'hard.json', 'scenario.json']);
  });

  it('refuses an output inside an input directory (a suite is never written into)', async () => {
    const suite = join(dir, 'suite');
    mkdirSync(suite);
    writeFileSync(join(suite, 'manifest.json'), 'm');
    for (const out of [join(suite, 'manifest.json'), join(suite, 'new.json')]) {
      const error = await outputError(writeOutputFile(out, 'x', { force: true, inputs: [suite] }));
      expect(error.message).toBe(`output ${out} is inside the input directory ${suite}; inputs are never written`);
    }
    expect(entries(suite)).toEqual(['manifest.json']);
    // Next to the suite is fine.
    await writeOutputFile(join(dir, 'manifest.json'), 'ok', { force: false, inputs: [suite] });
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe('ok');
  });

  it('ignores an input that does not exist (its loader reports it)', async () => {
    await writeOutputFile(join(dir, 'out'), 'x', { force: false, inputs: [join(dir, 'gone')] });
    expect(entries()).toEqual(['out']);
  });

  it('does not replace a file created by another process between the check and the link', async () => {
    const out = join(dir, 'record.json');
    const error = await outputError(
      writeOutputFile(out, 'mine', {
        ...plain,
        hooks: { afterTempWritten: () => writeFileSync(out, 'theirs') },
      }),
    );
    expect(error.message).toBe(`output file exists (use --force to replace it): ${out}`);
    expect(readFileSync(out, 'utf8')).toBe('theirs');
    expect(entries()).toEqual(['record.json']);
  });

  it('removes the temporary file when publishing fails', async () => {
    const out = join(dir, 'record.json');
    let temp = '';
    const error = await outputError(
      writeOutputFile(out, 'x', {
        ...plain,
        hooks: {
          afterTempWritten: (t) => {
            temp = t;
          },
          link: async () => {
            throw errnoError('EIO');
          },
        },
      }),
    );
    expect(error.message).toBe(`cannot write output ${out}: EIO`);
    expect(temp.startsWith(join(dir, '.record.json.'))).toBe(true);
    expect(entries()).toEqual([]);
  });

  it('writes the temporary file in the output directory', async () => {
    const out = join(dir, 'record.json');
    let seen: string[] = [];
    await writeOutputFile(out, 'x', { ...plain, hooks: { afterTempWritten: () => void (seen = entries()) } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^\.record\.json\.\d+\.[0-9a-f]{12}\.tmp$/);
    expect(entries()).toEqual(['record.json']);
  });

  it('rename with --force cannot replace a directory that appeared meanwhile', async () => {
    const out = join(dir, 'record.json');
    await outputError(
      writeOutputFile(out, 'x', { force: true, inputs: [], hooks: { afterTempWritten: () => void mkdirSync(join(out, 'child'), { recursive: true }) } }),
    );
    expect(entries()).toEqual(['record.json']);
    expect(entries(out)).toEqual(['child']);
  });
});

describe('writeOutputFile without hard links (O_CREAT | O_EXCL fallback)', () => {
  const noLink = { link: async () => Promise.reject(errnoError('EPERM')) };

  it('creates the output directly', async () => {
    const out = join(dir, 'record.json');
    await writeOutputFile(out, 'direct', { ...plain, hooks: noLink });
    expect(readFileSync(out, 'utf8')).toBe('direct');
    expect(entries()).toEqual(['record.json']);
  });

  for (const code of ['ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS']) {
    it(`treats link error ${code} as "no hard links"`, async () => {
      const out = join(dir, 'record.json');
      await writeOutputFile(out, code, { ...plain, hooks: { link: async () => Promise.reject(errnoError(code)) } });
      expect(readFileSync(out, 'utf8')).toBe(code);
    });
  }

  it('does not replace a file created meanwhile', async () => {
    const out = join(dir, 'record.json');
    const error = await outputError(
      writeOutputFile(out, 'mine', {
        ...plain,
        hooks: { ...noLink, afterTempWritten: () => writeFileSync(out, 'theirs') },
      }),
    );
    // link() is simulated as unsupported, so O_EXCL is what refuses here.
    expect(error.message).toBe(`output file exists (use --force to replace it): ${out}`);
    expect(readFileSync(out, 'utf8')).toBe('theirs');
    expect(entries()).toEqual(['record.json']);
  });

  it('removes the output it created when the write fails', async () => {
    const out = join(dir, 'record.json');
    const error = await outputError(
      writeOutputFile(out, 'x', {
        ...plain,
        hooks: {
          ...noLink,
          beforeDirectWrite: () => {
            expect(existsSync(out)).toBe(true);
            throw errnoError('ENOSPC');
          },
        },
      }),
    );
    expect(error.message).toBe(`cannot write output ${out}: the disk is full (ENOSPC, no space left on device); free some space on that disk and try again`);
    expect(entries()).toEqual([]);
  });

  it('leaves the output alone when it is no longer the file it created', async () => {
    const out = join(dir, 'record.json');
    await outputError(
      writeOutputFile(out, 'x', {
        ...plain,
        hooks: {
          ...noLink,
          beforeDirectWrite: () => {
            unlinkSync(out);
            writeFileSync(out, 'someone else');
            throw errnoError('EIO');
          },
        },
      }),
    );
    expect(readFileSync(out, 'utf8')).toBe('someone else');
    expect(entries()).toEqual(['record.json']);
  });
});

describe('checkOutputPath', () => {
  it('accepts a new file in an existing directory and writes nothing', async () => {
    await checkOutputPath(join(dir, 'new.json'), plain);
    expect(entries()).toEqual([]);
  });

  it('refuses an existing file without --force, accepts it with --force', async () => {
    writeFileSync(join(dir, 'x'), '');
    await outputError(checkOutputPath(join(dir, 'x'), plain));
    await checkOutputPath(join(dir, 'x'), { force: true, inputs: [] });
  });

  it('refuses a dangling symlink without --force (link() would refuse it too)', async () => {
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    await outputError(checkOutputPath(join(dir, 'dangling'), plain));
  });

  it('refuses an empty path', async () => {
    expect((await outputError(checkOutputPath('', plain))).message).toBe('output path is empty');
  });
});

describe('SIGINT while writing', () => {
  it('removes the temporary file and exits 130 through the CLI interrupt handler', () => {
    const out = join(dir, 'record.json');
    const script = join(import.meta.dirname, '..', '..', 'test', 'cli', 'fixtures', 'interrupt-during-write.ts');
    const result = spawnSync(process.execPath, ['--import', 'tsx', script, out], { encoding: 'utf8', cwd: join(import.meta.dirname, '..', '..') });
    expect(result.stderr).toBe('{"error":{"exit_code":130,"kind":"interrupted","message":"interrupted"}}\n');
    expect(result.status).toBe(130);
    expect(result.stdout).toBe('temp written\n');
    expect(entries()).toEqual([]);
  });
});

describe('--force replaces only a regular file', () => {
  // Special files are made in the temporary folder (mkfifo, mknod), never on the host's /dev.
  function make(tool: string, ...args: string[]): void {
    const result = spawnSync(tool, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed: ${result.stderr}`);
  }

  it('refuses a character device, a FIFO and a symbolic link by name, with or without --force, and leaves them as they were', async () => {
    const fifo = join(dir, 'fifo');
    make('mkfifo', fifo);
    const device = join(dir, 'full');
    // The same device numbers as /dev/full (1, 7); as root this succeeds, else the case is skipped.
    const isRoot = process.getuid?.() === 0;
    if (isRoot) make('mknod', device, 'c', '1', '7');
    const target = join(dir, 'target.json');
    writeFileSync(target, 'target');
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    const cases: [string, string][] = [
      [fifo, 'a FIFO (named pipe)'],
      [link, 'a symbolic link'],
      ...(isRoot ? [[device, 'a character device'] as [string, string]] : []),
    ];
    for (const [out, kind] of cases) {
      for (const force of [true, false]) {
        const error = await outputError(writeOutputFile(out, 'x', { force, inputs: [] }));
        expect(error.message).toBe(`output ${out} is ${kind}, not a regular file; only a regular file is ever replaced: choose another output path`);
      }
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('target');
    if (isRoot) expect(lstatSync(device).isCharacterDevice()).toBe(true);
    expect(entries()).toEqual(['fifo', 'link.json', 'target.json', ...(isRoot ? ['full'] : [])].sort());
  });

  it('refuses a symlink or a hard link to a file inside an input directory, even with --force', async () => {
    const suite = join(dir, 'suite');
    mkdirSync(join(suite, 'deep'), { recursive: true });
    const inside = join(suite, 'deep', 'scenario.json');
    writeFileSync(inside, 'scenario');
    const out = join(dir, 'out');
    mkdirSync(out);
    symlinkSync(inside, join(out, 'soft.json'));
    linkSync(inside, join(out, 'hard.json'));
    for (const name of ['soft.json', 'hard.json']) {
      const path = join(out, name);
      const error = await outputError(writeOutputFile(path, 'x', { force: true, inputs: [suite] }));
      expect(error.message).toBe(`output ${path} is a link to a file inside the input directory ${suite}; inputs are never written: choose another output path`);
    }
    expect(readFileSync(inside, 'utf8')).toBe('scenario');
    // A plain file with --force is still replaced.
    writeFileSync(join(out, 'plain.json'), 'old');
    await writeOutputFile(join(out, 'plain.json'), 'new', { force: true, inputs: [suite] });
    expect(readFileSync(join(out, 'plain.json'), 'utf8')).toBe('new');
  });
});
