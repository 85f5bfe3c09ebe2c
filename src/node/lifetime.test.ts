import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ResourceScope, type Resource } from './lifetime.js';

function recorder(log: string[], name: string): Resource {
  return { dispose: () => void log.push(`dispose ${name}`), onExit: () => void log.push(`exit ${name}`) };
}

describe('ResourceScope', () => {
  it('disposes its resources newest first, skips released ones, and survives a failing one', async () => {
    const log: string[] = [];
    const scope = ResourceScope.root();
    scope.add(recorder(log, 'a'));
    const releaseB = scope.add(recorder(log, 'b'));
    scope.add({ dispose: () => Promise.reject(new Error('boom')), onExit: () => undefined });
    scope.add(recorder(log, 'c'));
    releaseB();
    expect(scope.size).toBe(3);
    await scope.dispose();
    expect(log).toEqual(['dispose c', 'dispose a']);
    expect(scope.isDisposed).toBe(true);
    expect(scope.size).toBe(0);
  });

  it('disposes child scopes with their parent; a disposed child leaves its parent', async () => {
    const log: string[] = [];
    const parent = ResourceScope.root();
    const first = parent.child();
    first.add(recorder(log, 'first'));
    const second = parent.child();
    second.add(recorder(log, 'second'));
    expect(second.within(parent)).toBe(true);
    expect(parent.within(second)).toBe(false);
    await first.dispose();
    expect(parent.size).toBe(1);
    await parent.dispose();
    expect(log).toEqual(['dispose first', 'dispose second']);
    expect(second.isDisposed).toBe(true);
  });

  it('releases at once what is added to a disposed scope', async () => {
    const log: string[] = [];
    const scope = ResourceScope.root();
    await scope.dispose();
    scope.add(recorder(log, 'late'));
    expect(log).toEqual(['exit late']);
    expect(scope.size).toBe(0);
  });

  it('runs the synchronous exit path of every live resource, children included', () => {
    const log: string[] = [];
    const scope = ResourceScope.root();
    scope.add(recorder(log, 'a'));
    scope.child().add(recorder(log, 'child'));
    scope.add({ dispose: () => undefined, onExit: () => { throw new Error('must not stop the others'); } });
    scope.runExitHooks();
    expect(log).toEqual(['exit child', 'exit a']);
  });

  it('the process exit hook releases what processScope still holds (one hook, installed once)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ember-lifetime-'));
    try {
      const marker = join(dir, 'marker');
      const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
      const lifetime = pathToFileURL(join(import.meta.dirname, 'lifetime.ts')).href;
      const code = `
        import { writeFileSync } from 'node:fs';
        const { processScope } = await import(${JSON.stringify(lifetime)});
        const before = process.listenerCount('exit');
        processScope.add({ dispose() {}, onExit() { writeFileSync(${JSON.stringify(marker)}, 'x'); } });
        processScope.child().add({ dispose() {}, onExit() {} });
        process.stdout.write(String(process.listenerCount('exit') - before));
        process.exit(0);
      `;
      const run = spawnSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', code], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe('1');
      expect(existsSync(marker)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
