/**
 * Which compiled better-sqlite3 module the archive loads. The Electron main
 * process sets it to the build made for Electron's ABI
 * (scripts/electron-native.js); Node processes leave it unset. Kept apart
 * from the store (db.ts) so that the app's main process and the archive
 * worker can set it without holding a database.
 */

let nativeBinding: string | undefined;

export function useSqliteNativeBinding(path: string | undefined): void {
  nativeBinding = path;
}

/** The binding set with useSqliteNativeBinding, if any: the archive worker's threads load the same one (off-thread.ts). */
export function sqliteNativeBinding(): string | undefined {
  return nativeBinding;
}
