/**
 * Validation of every IPC call in main, kept free of Electron imports so it
 * is tested without the binary: the call must come from the app's own
 * window, from its top frame, showing the app's own page; the procedure
 * name and the input are then checked by the shared dispatcher.
 */

import type { Handlers } from '../node/services/dispatch.js';
import { dispatch } from '../node/services/dispatch.js';
import { fail, type ApiResult } from '../shared/api/result.js';

/** What main knows of a call's sender (from Electron's IpcMainInvokeEvent). */
export interface CallSender {
  /** webContents id of the sender. */
  readonly webContentsId: number;
  /** The URL of the frame that sent it, or null when the frame is gone. */
  readonly frameUrl: string | null;
  /** True when the sending frame is the top frame of its page. */
  readonly isTopFrame: boolean;
}

export interface TrustedApp {
  /** The app window's webContents id. */
  readonly webContentsId: number;
  /** True for the app's own page URL (the built renderer, or the dev server). */
  isAppUrl(url: string): boolean;
}

/** Why a sender is refused, or null when it is the app itself. */
export function senderProblem(sender: CallSender, app: TrustedApp): string | null {
  if (sender.webContentsId !== app.webContentsId) return 'the call does not come from the app window';
  if (!sender.isTopFrame) return 'the call comes from a subframe';
  if (sender.frameUrl === null || !app.isAppUrl(sender.frameUrl)) return 'the call does not come from the app page';
  return null;
}

/** Handles one `ember:call`: sender check, then the dispatcher (name and schema). */
export async function handleIpcCall(handlers: Handlers, app: TrustedApp, sender: CallSender, name: unknown, input: unknown): Promise<ApiResult<unknown>> {
  const problem = senderProblem(sender, app);
  if (problem !== null) return fail('bad_request', `refused: ${problem}`);
  return dispatch(handlers, name, input);
}

/** The app-page test for a file:// renderer: exactly the built index.html (query and hash allowed). */
export function fileUrlMatcher(indexFileUrl: string): (url: string) => boolean {
  return (url) => {
    try {
      const u = new URL(url);
      return u.protocol === 'file:' && `file://${u.host}${u.pathname}` === new URL(indexFileUrl).href.replace(/[?#].*$/, '');
    } catch {
      return false;
    }
  };
}
