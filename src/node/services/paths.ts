/**
 * Where the archive lives by default: the user's data folder by platform
 * convention, the same folder Electron's app.getPath('userData') gives for
 * productName "EMBER Workbench", so the desktop app, `emberbench serve` and
 * `emberbench archive` share one archive without configuration.
 */

import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

export const PRODUCT_NAME = 'EMBER Workbench';
export const ARCHIVE_FILE_NAME = 'archive.sqlite';

export interface PlatformEnv {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
}

function currentEnv(): PlatformEnv {
  return { platform: process.platform, env: process.env, home: homedir() };
}

/** The per-user data folder of the app (Electron's userData for PRODUCT_NAME). */
export function userDataDir(p: PlatformEnv = currentEnv()): string {
  switch (p.platform) {
    case 'win32':
      return win32.join(p.env['APPDATA'] ?? win32.join(p.home, 'AppData', 'Roaming'), PRODUCT_NAME);
    case 'darwin':
      return posix.join(p.home, 'Library', 'Application Support', PRODUCT_NAME);
    default: {
      // Electron (like Chromium) uses $XDG_CONFIG_HOME or ~/.config on Linux and the BSDs.
      const xdg = p.env['XDG_CONFIG_HOME'];
      return posix.join(xdg !== undefined && xdg !== '' ? xdg : posix.join(p.home, '.config'), PRODUCT_NAME);
    }
  }
}

/** The default archive file: `<userData>/archive.sqlite`. */
export function defaultArchivePath(p: PlatformEnv = currentEnv()): string {
  return p.platform === 'win32' ? win32.join(userDataDir(p), ARCHIVE_FILE_NAME) : posix.join(userDataDir(p), ARCHIVE_FILE_NAME);
}
