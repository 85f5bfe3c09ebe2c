#!/usr/bin/env node
// Builds better-sqlite3's native module for Electron's ABI into
// out/native/electron-<version>/better_sqlite3.node, once per Electron
// version. node_modules keeps the Node build (the CLI, `serve` and the tests
// use it); the desktop app loads this one (better-sqlite3's `nativeBinding`
// option). Needs Electron's headers, downloaded by node-gyp: run it on a
// machine with access to electronjs.org (this is what `npm start` does).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
const target = join(root, 'out', 'native', `electron-${electronVersion}`);
const binding = join(target, 'better_sqlite3.node');
if (existsSync(binding)) process.exit(0);

// npm's own node-gyp (npm runs this script, so npm_execpath is set; otherwise next to the npm on PATH).
const npmCli = process.env.npm_execpath ?? '';
const nodeGyp = [join(dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'), join(dirname(npmCli), 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')].find((p) => existsSync(p));
if (nodeGyp === undefined) {
  console.error('Cannot find node-gyp (it ships with npm): run this through npm (`npm start`).');
  process.exit(1);
}

console.log(`Building better-sqlite3 for Electron ${electronVersion} (once) ...`);
const work = join(root, 'out', 'native', 'build');
rmSync(work, { recursive: true, force: true });
cpSync(join(root, 'node_modules', 'better-sqlite3'), work, { recursive: true });
rmSync(join(work, 'build'), { recursive: true, force: true });
const gyp = spawnSync(process.execPath, [nodeGyp, 'rebuild', '--release', `--target=${electronVersion}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'], { cwd: work, stdio: 'inherit' });
if (gyp.status !== 0) {
  console.error('Building better-sqlite3 for Electron failed (see above). Browser mode works without it: `npx emberbench serve`.');
  process.exit(gyp.status ?? 1);
}
mkdirSync(target, { recursive: true });
cpSync(join(work, 'build', 'Release', 'better_sqlite3.node'), binding);
rmSync(work, { recursive: true, force: true });
console.log(`Built ${binding}`);
