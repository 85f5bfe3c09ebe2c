/** Shared helpers of the agent host tests (not part of the build). */

import { AgentError } from '../../core/errors.js';

/** Whether a process with this pid still exists. */
export function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The AgentError a promise rejects with; anything else fails the test. */
export async function failure(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  throw new Error('expected an AgentError, but the call succeeded');
}
