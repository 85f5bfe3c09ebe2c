/**
 * `emberbench serve`: the workbench in a browser. The same services as the
 * desktop app (src/node/services), the same built renderer (out/renderer), on
 * 127.0.0.1 only, behind an access token. The port (DEFAULT_SERVE_PORT
 * unless --port) and the token (kept in the user's data folder:
 * serve-token.ts) stay the same from launch to launch, so the app's links
 * survive a restart; --rotate-token replaces the token. It runs until Ctrl+C
 * or SIGTERM, then stops its evaluations (they stay resumable), closes the
 * archive and exits 0.
 */

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../core/errors.js';
import type { EventName, Events } from '../../shared/api/contract.js';
import {
  createWorkbenchServices,
  defaultArchivePath,
  defaultEntryPoints,
  loadOrCreateServeToken,
  rotateServeToken,
  serveTokenPath,
  startWorkbenchServer,
  userDataDir,
  type WorkbenchServer,
} from '../../node/front-door/serve.js';
import { takeOverInterrupt } from '../interrupt.js';
import type { CommandContext, CommandModule, ParsedArgs, Report } from '../command.js';

/** The checkout or installed package this CLI runs from (dist/cli/commands or src/cli/commands, three levels down). */
function packageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
}

/** The default port: fixed, so that an address (and every link copied from the app) is the same after a restart. */
export const DEFAULT_SERVE_PORT = 8731;

function portArgument(text: string | undefined): number {
  if (text === undefined) return DEFAULT_SERVE_PORT;
  if (!/^(0|[1-9][0-9]{0,4})$/.test(text) || Number(text) > 65535) {
    throw new UsageError(`--port: must be an integer from 0 to 65535 (0 picks a free port), not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/** Opens the URL in the default browser; failure to open is not fatal (the URL is printed). */
function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no browser opener on this machine
  }
}

/** A port that cannot be had: which one, why, and how to choose another (exit 2, like any argument to change). */
function portRefusal(error: unknown, port: number): unknown {
  const code = (error as { code?: unknown }).code;
  const choose = `choose another with --port N (--port 0 picks any free port, but then the address changes at every launch)`;
  if (code === 'EADDRINUSE') return new UsageError(`port ${port} on 127.0.0.1 is in use (another emberbench serve, or another program): stop it, or ${choose}`);
  if (code === 'EACCES') return new UsageError(`port ${port} on 127.0.0.1 may not be opened by this user (ports below 1024 need privileges): ${choose}`);
  return error;
}

async function serve(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const port = portArgument(args.value('port'));
  const archivePath = resolve(args.value('archive') ?? defaultArchivePath());
  const root = packageRoot();
  const staticDir = join(root, 'out', 'renderer');
  if (!existsSync(join(staticDir, 'index.html'))) {
    throw new UsageError(`the app is not built (${join(staticDir, 'index.html')} is missing): run \`npm run build\` first`);
  }
  const dataDir = userDataDir();
  // Before the services start: a refused token file stops the command with nothing opened.
  const rotated = args.flag('rotate-token');
  const token = rotated ? rotateServeToken(dataDir) : loadOrCreateServeToken(dataDir);
  let server: WorkbenchServer | undefined;
  const emit = <E extends EventName>(event: E, payload: Events[E]): void => server?.broadcast(event, payload);
  const services = await createWorkbenchServices({
    archivePath,
    publicSuiteDir: join(root, 'scenarios', 'public', 'v1'),
    entryPoints: defaultEntryPoints(),
    mode: 'browser',
    // The signing key and trust list live in the app's data folder, as in the desktop app, never beside a chosen archive.
    dataDir,
    version: (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version,
    emit,
  });
  try {
    server = await startWorkbenchServer({ handlers: services.handlers, importBody: services.importBody, staticDir, port, token });
  } catch (error) {
    await services.dispose();
    throw portRefusal(error, port);
  }
  // The only line that carries the token; nothing else this command prints or returns does.
  context.io.stdout(`EMBER Workbench: ${server.url}\n`);
  context.io.stderr(
    `archive: ${archivePath}\n` +
      `Open the URL above once in a browser; after that the app's own links (Copy link) work in it, also after a restart of serve on port ${server.port}.\n` +
      `The token is kept in ${serveTokenPath(dataDir)}${rotated ? ' (replaced now: links opened with the old one need the URL above again)' : ''}; \`emberbench serve --rotate-token\` replaces it.\n` +
      'Ctrl+C stops the server; running evaluations can be resumed next time.\n',
  );
  if (!args.flag('no-open')) openBrowser(server.url);

  let restore = (): void => undefined;
  await new Promise<void>((stopped) => {
    restore = takeOverInterrupt(() => stopped());
    process.once('SIGTERM', () => stopped());
  });
  restore();
  context.io.stderr('stopping: evaluations in flight are kept for resume\n');
  await server.close();
  await services.dispose();
  return { url: server.origin, archive: archivePath, stopped: true };
}

export const serveModule: CommandModule = {
  group: 'serve',
  summary: 'the workbench in a browser (browser mode)',
  commands: [
    {
      words: ['serve'],
      summary: 'serve the workbench app on 127.0.0.1',
      description:
        `Runs the workbench services (archive, evaluations, scoring) and serves the app on 127.0.0.1 only, on port ${DEFAULT_SERVE_PORT} unless --port says otherwise. Prints one line with the URL; the URL carries the access token, and every request without it (or the cookie a browser gets from it) is refused, as is a request whose Host or Origin is not this server. The token is kept, readable only by you, in the file serve-token in the user's data folder, so the port, the token and every link copied from the app stay valid after a restart; --rotate-token replaces it (each browser then opens the newly printed URL once). A port in use stops the command with exit code 2. Opens the default browser unless --no-open. Runs until Ctrl+C or SIGTERM; evaluations in flight stay resumable.`,
      positionals: [],
      options: [
        { name: 'port', kind: 'value', valueName: 'N', description: `the port (default: ${DEFAULT_SERVE_PORT}; 0 picks any free port)` },
        { name: 'rotate-token', kind: 'flag', description: 'replace the kept access token with a new one before serving (each browser then opens the newly printed URL once)' },
        { name: 'archive', kind: 'value', valueName: 'FILE', description: "the archive file (default: archive.sqlite in the user's data folder, as the desktop app uses)" },
        { name: 'no-open', kind: 'flag', description: 'do not open a browser' },
      ],
      examples: ['emberbench serve', 'emberbench serve --port 8777 --archive runs/archive.sqlite --no-open', 'emberbench serve --rotate-token'],
      run: (args, context) => serve(args, context),
    },
  ],
};
