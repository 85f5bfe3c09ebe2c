/**
 * The Electron main process: one window, the IPC bridge, the services.
 * Main stays thin: the archive, evaluations and scoring are the services of
 * src/node/services (tested without Electron); this file wires them to a window.
 *
 * Security (workbench.md section 1): contextIsolation, sandbox, no Node in
 * the renderer, a strict CSP, navigation and new windows blocked,
 * permission requests denied, every IPC call validated (ipc-guard.ts).
 */

import { app, BrowserWindow, dialog, ipcMain, screen, session, shell, type IpcMainInvokeEvent } from 'electron';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isEmberError } from '../core/errors.js';
import { createWorkbenchServices } from '../node/services/services.js';
import { useSqliteNativeBinding } from '../node/archive/sqlite-binding.js';
import { useNativeHash } from '../node/native-hash.js';
import { CONTENT_SECURITY_POLICY } from '../node/server/static-files.js';
import type { EventName, Events } from '../shared/api/contract.js';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../shared/api/client.js';
import { fileUrlMatcher, handleIpcCall, type TrustedApp } from './ipc-guard.js';
import { readSettings, writeSettings } from './settings.js';
import { readWindowState, writeWindowState } from './window-state.js';

app.setName('EMBER Workbench');

// One app per user: a second launch focuses the first, which owns the archive's writer.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  start().catch((error: unknown) => {
    // Before the window exists (the archive cannot be opened: damaged, a newer schema, read-only, a full disk, in use):
    // the reason in a dialog, never a silent exit or a crash report.
    const reason = isEmberError(error) ? error.message : `unexpected failure (a bug): ${error instanceof Error ? error.message : String(error)}`;
    if (app.isReady()) dialog.showErrorBox('EMBER Workbench cannot start', `${reason}\n\nTo use another archive, start the app with --archive=FILE.`);
    else process.stderr.write(`EMBER Workbench cannot start: ${reason}\n`);
    app.exit(1);
  });
}

/** `--archive FILE` on the command line, else the last archive used, else the default in the data folder. */
function chooseArchive(settingsFile: string): string {
  const flag = process.argv.find((a) => a.startsWith('--archive='));
  if (flag !== undefined) return resolve(flag.slice('--archive='.length));
  return readSettings(settingsFile).lastArchive ?? join(app.getPath('userData'), 'archive.sqlite');
}

async function start(): Promise<void> {
  useNativeHash();
  await app.whenReady();
  const userData = app.getPath('userData');
  mkdirSync(userData, { recursive: true });
  const settingsFile = join(userData, 'settings.json');
  const archivePath = chooseArchive(settingsFile);

  // Deny every permission (camera, notifications, ...): the app needs none.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });

  // Events may arrive before the window exists (a resumed run): they are dropped until it does.
  const ui: { window?: BrowserWindow } = {};
  const emit = <E extends EventName>(event: E, payload: Events[E]): void => {
    if (ui.window !== undefined && !ui.window.isDestroyed()) ui.window.webContents.send(IPC_EVENT_CHANNEL, event, payload);
  };
  const here = __dirname; // out/main, where electron-vite puts this bundle and the worker entries
  const appRoot = app.getAppPath();
  // better-sqlite3 built for Electron's ABI by scripts/electron-native.js (npm start); a packaged app rebuilds it in place.
  const electronSqlite = join(appRoot, 'out', 'native', `electron-${process.versions.electron}`, 'better_sqlite3.node');
  if (!app.isPackaged && existsSync(electronSqlite)) useSqliteNativeBinding(electronSqlite);
  const services = await createWorkbenchServices({
    archivePath,
    publicSuiteDir: join(app.isPackaged ? process.resourcesPath : appRoot, 'scenarios', 'public', 'v1'),
    entryPoints: { evaluationWorker: join(here, 'evaluation-worker.js'), moduleHost: join(here, 'module-host.js'), archiveWorker: join(here, 'archive-worker.js') },
    mode: 'desktop',
    version: app.getVersion(),
    emit,
    // The signing key and trust list: the user's data folder, never the archive.
    dataDir: userData,
  });
  // Remembered once it opened: an archive that cannot be opened is not offered again at the next start.
  writeSettings(settingsFile, { lastArchive: archivePath });

  const stateFile = join(userData, 'window-state.json');
  const state = readWindowState(stateFile);
  const visible = screen.getAllDisplays().some((d) => state.x !== undefined && state.y !== undefined && state.x >= d.bounds.x && state.y >= d.bounds.y && state.x < d.bounds.x + d.bounds.width && state.y < d.bounds.y + d.bounds.height);
  const window = new BrowserWindow({
    width: state.width,
    height: state.height,
    ...(visible ? { x: state.x, y: state.y } : {}),
    minWidth: 960,
    minHeight: 640,
    title: 'EMBER Workbench',
    icon: join(appRoot, 'resources', 'icon.png'),
    show: false,
    webPreferences: {
      preload: join(here, '..', 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  if (state.maximized) window.maximize();
  ui.window = window;
  window.once('ready-to-show', () => window.show());
  window.on('close', () => {
    const b = window.getNormalBounds();
    writeWindowState(stateFile, { width: b.width, height: b.height, x: b.x, y: b.y, maximized: window.isMaximized() });
  });

  const devUrl = process.env.ELECTRON_RENDERER_URL;
  const indexFile = join(here, '..', 'renderer', 'index.html');
  const indexUrl = pathToFileURL(indexFile).href;
  const trusted: TrustedApp = {
    webContentsId: window.webContents.id,
    isAppUrl: devUrl !== undefined && !app.isPackaged ? (url) => url.startsWith(devUrl) : fileUrlMatcher(indexUrl),
  };

  // No navigation away from the app and no new windows; links open in the system browser.
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  ipcMain.handle(IPC_CALL_CHANNEL, (event: IpcMainInvokeEvent, name: unknown, input: unknown) =>
    handleIpcCall(services.handlers, trusted, { webContentsId: event.sender.id, frameUrl: event.senderFrame?.url ?? null, isTopFrame: event.senderFrame?.parent === null }, name, input),
  );

  if (devUrl !== undefined && !app.isPackaged) await window.loadURL(devUrl);
  else await window.loadFile(indexFile);

  app.on('second-instance', () => {
    if (window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  let disposed = false;
  app.on('before-quit', (event) => {
    if (disposed) return;
    event.preventDefault();
    disposed = true;
    // Evaluations in flight become resumable; the archive closes cleanly.
    void services.dispose().finally(() => app.quit());
  });
  app.on('window-all-closed', () => app.quit());
}
