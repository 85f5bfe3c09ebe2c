#!/usr/bin/env node
// `npm start`: opens the desktop app. Where the Electron binary is missing
// and cannot be downloaded (a headless box, a machine without access to
// Electron's downloads), it says so in one line and starts browser mode
// (`emberbench serve`) instead. Extra arguments go to the app or the server
// (for example `npm start -- --archive runs/archive.sqlite`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

function built() {
  return existsSync(join(root, 'dist', 'cli', 'main.js')) && existsSync(join(root, 'out', 'main', 'index.js')) && existsSync(join(root, 'out', 'renderer', 'index.html'));
}

/** The Electron executable, downloading it once if needed; undefined when there is none to be had. */
function electronBinary() {
  const dir = join(root, 'node_modules', 'electron');
  if (!existsSync(dir)) return undefined;
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) {
    const install = spawnSync(process.execPath, [join(dir, 'install.js')], { cwd: dir, stdio: 'ignore', timeout: 300_000 });
    if (install.status !== 0 || !existsSync(pathFile)) return undefined;
  }
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

function run(command, argv) {
  const child = spawn(command, argv, { cwd: root, stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
}

if (!built()) {
  console.log('Building (npm run build) ...');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const electron = electronBinary();
if (electron !== undefined) {
  // better-sqlite3 must be built for Electron's ABI (see the README): done once, into out/native.
  const native = spawnSync(process.execPath, [join(root, 'scripts', 'electron-native.js')], { cwd: root, stdio: 'inherit' });
  if (native.status !== 0) process.exit(native.status ?? 1);
  run(electron, [root, ...args]);
} else {
  console.log('The Electron binary is not installed on this machine and could not be downloaded: starting browser mode (emberbench serve) instead.');
  run(process.execPath, [join(root, 'bin', 'emberbench.js'), 'serve', ...args]);
}
