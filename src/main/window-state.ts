/**
 * The window's size, position and maximized state, remembered between
 * launches in a small JSON file in the user's data folder. A missing or
 * unreadable file gives the defaults; a position off every screen is the
 * caller's to correct (Electron's screen API).
 */

import { readFileSync, writeFileSync, renameSync } from 'node:fs';

export interface WindowState {
  readonly width: number;
  readonly height: number;
  readonly x?: number;
  readonly y?: number;
  readonly maximized: boolean;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1320, height: 860, maximized: false };

function isInt(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

export function readWindowState(file: string): WindowState {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (!isInt(v.width, 640, 20000) || !isInt(v.height, 480, 20000)) return DEFAULT_WINDOW_STATE;
    const pos = isInt(v.x, -20000, 20000) && isInt(v.y, -20000, 20000) ? { x: v.x, y: v.y } : {};
    return { width: v.width, height: v.height, ...pos, maximized: v.maximized === true };
  } catch {
    return DEFAULT_WINDOW_STATE;
  }
}

export function writeWindowState(file: string, state: WindowState): void {
  const temp = `${file}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify(state));
    renameSync(temp, file);
  } catch {
    // Remembering the window is a convenience: never fail the quit over it.
  }
}
