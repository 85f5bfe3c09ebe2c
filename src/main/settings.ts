/** The app's own settings (the last archive), a small JSON file in the user's data folder. */

import { readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface Settings {
  readonly lastArchive?: string;
}

export function readSettings(file: string): Settings {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return typeof v.lastArchive === 'string' && v.lastArchive !== '' ? { lastArchive: v.lastArchive } : {};
  } catch {
    return {};
  }
}

export function writeSettings(file: string, settings: Settings): void {
  try {
    writeFileSync(`${file}.tmp`, JSON.stringify(settings));
    renameSync(`${file}.tmp`, file);
  } catch {
    // A settings file that cannot be written only costs the next launch its memory.
  }
}
