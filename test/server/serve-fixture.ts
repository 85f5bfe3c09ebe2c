// A real browser-mode server for the process tests: the workbench services
// on a fresh archive and startWorkbenchServer on 127.0.0.1, as `emberbench
// serve` starts them, but with the small limits and timeouts a test gives
// (argv[2], JSON: {archive, limits, jobHeapMb}), so that every hostile case
// is answered within a fraction of a second. Prints one JSON line (origin,
// port, token, appPath) once it listens; SIGTERM stops it.
import { join } from 'node:path';
import { createWorkbenchServices } from '../../src/node/services/services.js';
import { setArchiveJobHeapLimit } from '../../src/node/jobs/off-thread.js';
import { defaultEntryPoints } from '../../src/node/entry-points.js';
import type { ServerLimits } from '../../src/node/server/limits.js';
import { startWorkbenchServer, type WorkbenchServer } from '../../src/node/server/workbench-server.js';

interface FixtureOptions {
  readonly archive: string;
  readonly limits: Partial<ServerLimits>;
  readonly jobHeapMb?: number;
}

const opts = JSON.parse(process.argv[2]!) as FixtureOptions;
if (opts.jobHeapMb !== undefined) setArchiveJobHeapLimit(opts.jobHeapMb);
const root = join(import.meta.dirname, '..', '..');
// Events go to the server once it listens.
const listening: { server?: WorkbenchServer } = {};
const services = await createWorkbenchServices({
  archivePath: opts.archive,
  publicSuiteDir: join(root, 'scenarios', 'public', 'v1'),
  entryPoints: defaultEntryPoints(),
  mode: 'browser',
  version: 'test',
  emit: (event, payload) => listening.server?.broadcast(event, payload),
});
const server = await startWorkbenchServer({ handlers: services.handlers, importBody: services.importBody, staticDir: join(root, 'test', 'server'), port: 0, limits: opts.limits });
listening.server = server;
process.stdout.write(`${JSON.stringify({ origin: server.origin, port: server.port, token: server.token, appPath: server.appPath })}\n`);
process.once('SIGTERM', () => {
  void server
    .close()
    .then(() => services.dispose())
    .then(() => process.exit(0));
});
