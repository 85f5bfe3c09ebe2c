/**
 * `emberbench serve`: the workbench in a browser. The same services as the
 * desktop app (src/node/services), the same built renderer (out/renderer), on
 * 127.0.0.1 only, behind a per-launch token. It runs until Ctrl+C or
 * SIGTERM, then stops its evaluations (they stay resumable), closes the
 * archive and exits 0.
 */

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../core/errors.js';
import type { EventName, Events } from '../../shared/api/contract.js';
import { createWorkbenchServices, defaultArchivePath, defaultEntryPoints, startWorkbenchServer, userDataDir, type WorkbenchServer } from '../../node/front-door/serve.js';
import { takeOverInterrupt } from '../interrupt.js';
import type { CommandContext, CommandModule, ParsedArgs, Report } from '../command.js';

/** The checkout or installed package this CLI runs from (dist/cli/commands or src/cli/commands, three levels down). */
function packageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
}

function portArgument(text: string | undefined): number {
  if (text === undefined) return 0;
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

async function serve(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const port = portArgument(args.value('port'));
  const archivePath = resolve(args.value('archive') ?? defaultArchivePath());
  const root = packageRoot();
  const staticDir = join(root, 'out', 'renderer');
  if (!existsSync(join(staticDir, 'index.html'))) {
    throw new UsageError(`the app is not built (${join(staticDir, 'index.html')} is missing): run \`npm run build\` first`);
  }
  let server: WorkbenchServer | undefined;
  const emit = <E extends EventName>(event: E, payload: Events[E]): void => server?.broadcast(event, payload);
  const services = await createWorkbenchServices({
    archivePath,
    publicSuiteDir: join(root, 'scenarios', 'public', 'v1'),
    entryPoints: defaultEntryPoints(),
    mode: 'browser',
    // The signing key and trust list live in the app's data folder, as in the desktop app, never beside a chosen archive.
    dataDir: userDataDir(),
    version: (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version,
    emit,
  });
  try {
    server = await startWorkbenchServer({ handlers: services.handlers, importBody: services.importBody, staticDir, port });
  } catch (error) {
    await services.dispose();
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--port: port ${port} is in use; choose another or leave --port out`);
    throw error;
  }
  context.io.stdout(`EMBER Workbench: ${server.url}\n`);
  context.io.stderr(`archive: ${archivePath}\nOpen the URL above (it carries this launch's token). Ctrl+C stops the server; running evaluations can be resumed next time.\n`);
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
        'Runs the workbench services (archive, evaluations, scoring) and serves the app on 127.0.0.1 only. Prints one line with the URL; the URL carries a token made for this launch, and every request without it is refused, as is a request whose Host or Origin is not this server. Opens the default browser unless --no-open. Runs until Ctrl+C or SIGTERM; evaluations in flight stay resumable.',
      positionals: [],
      options: [
        { name: 'port', kind: 'value', valueName: 'N', description: 'the port (default: a free one)' },
        { name: 'archive', kind: 'value', valueName: 'FILE', description: "the archive file (default: archive.sqlite in the user's data folder, as the desktop app uses)" },
        { name: 'no-open', kind: 'flag', description: 'do not open a browser' },
      ],
      examples: ['emberbench serve', 'emberbench serve --port 8777 --archive runs/archive.sqlite --no-open'],
      run: (args, context) => serve(args, context),
    },
  ],
};
