/**
 * The files the services start in another thread or process: the
 * evaluation worker (worker_threads, `evaluation run --jobs N`) and the
 * module agent host (a child process per JS/TS agent module).
 *
 * Services never guess these paths from their own location: a bundler
 * (electron-vite) moves code around, so the caller passes them in. The CLI
 * and the tests take them from `defaultEntryPoints()` below (dist/ when
 * running the build, src/ through tsx otherwise); the Electron main process
 * and `serve` pass the paths of their own bundle.
 *
 * A path ending in `.ts` is started through tsx (the worker registers tsx
 * in its thread first; the host gets `--import tsx`).
 */

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface EntryPoints {
  /** The evaluation worker module (src/node/eval/worker.ts or its built .js). */
  readonly evaluationWorker: string;
  /** The module agent host (src/node/agents/module-host-main.ts or its built .js). */
  readonly moduleHost: string;
  /**
   * The archive worker (src/node/jobs/archive-worker.ts or its built .js):
   * scoring, imports, pack builds and verifications run in it; without it
   * the services run them on their own thread.
   */
  readonly archiveWorker?: string;
}

/**
 * The entry points of this checkout: next to this module, `.js` in dist/
 * (the built CLI), `.ts` under src/ (tsx, vitest). For the CLI and tests
 * only; bundled apps pass their own EntryPoints.
 */
export function defaultEntryPoints(): EntryPoints {
  const here = fileURLToPath(import.meta.url);
  const ext = here.endsWith('.ts') ? '.ts' : '.js';
  const nodeDir = dirname(here);
  const entries = {
    evaluationWorker: join(nodeDir, 'eval', `worker${ext}`),
    moduleHost: join(nodeDir, 'agents', `module-host-main${ext}`),
    archiveWorker: join(nodeDir, 'jobs', `archive-worker${ext}`),
  };
  for (const path of Object.values(entries)) {
    if (!existsSync(path)) throw new Error(`entry point missing: ${path} (is the build complete?)`);
  }
  return entries;
}
