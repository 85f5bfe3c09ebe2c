/** An ApiError as the person at the screen reads it: what went wrong, then what to do. */

import type { ApiError, ApiErrorKind } from '../../shared/api/result.js';

/**
 * The next step for each kind of error; the message itself says what went wrong.
 * `hasField`: the error names an input field, so one is highlighted; without one
 * the advice must not point at a highlighted field that is not there.
 */
export function adviceFor(kind: ApiErrorKind, hasField = true): string {
  switch (kind) {
    case 'usage':
    case 'bad_request':
      return hasField ? 'Correct the highlighted field and try again.' : 'Correct the input and try again.';
    case 'validation':
      return 'The file or folder is malformed or was changed after it was made: use the original, or make it again with emberbench.';
    case 'agent':
      return 'The agent failed: check its path or command and run it once on its own (emberbench episode run) to see its error.';
    case 'mismatch':
      return 'The inputs do not belong together (another suite, manifest or pack): choose matching ones.';
    case 'output':
      return 'Nothing was written. An existing file or folder is never replaced: type a new name. Otherwise choose a place you can write to, with free space.';
    case 'interrupted':
      return 'The work was cancelled: resume it from the Run view when you are ready.';
    case 'not_found':
      return 'It is no longer in the archive: go back to the list and reload.';
    case 'conflict':
      return 'Something else holds it (another run, or another workbench on the same archive): wait for it to finish or close the other one.';
    case 'unavailable':
      // Port and token stay the same from launch to launch, so this page and its links work again once it runs.
      return 'Start `emberbench serve` again, then open the address it prints (or use this page again: its address stays valid).';
    case 'internal':
      return 'This is a bug in the workbench: reload the page; if it happens again, report it with the message above.';
  }
}

/**
 * `inlineFields`: the fields whose control shows the message itself (Field
 * does): an error about one of them is not written a second time here.
 */
export function ErrorMessage({ error, onDismiss, inlineFields = [] }: { error: ApiError | null; onDismiss?: () => void; inlineFields?: readonly string[] }) {
  if (error === null) return null;
  const shownInline = inlineFields.some((f) => errorIsFor(error, f));
  return (
    <div className="error" role="alert" tabIndex={-1}>
      <div className="error-text">
        {!shownInline && <strong>{error.message}</strong>}
        <span>{adviceFor(error.kind, error.field !== undefined)}</span>
      </div>
      {onDismiss !== undefined && (
        <button type="button" className="link" onClick={onDismiss} aria-label="Dismiss the error">
          Dismiss
        </button>
      )}
    </div>
  );
}

/** True when the error is about this input field (or one inside it, such as `agent.id` for `agent`). */
export function errorIsFor(error: ApiError | null, field: string): boolean {
  if (error?.field === undefined) return false;
  return error.field === field || error.field.startsWith(field + '.');
}
