/**
 * Where the focus goes after an action (WCAG 2.4.3): to what the action
 * made (a notice, a result, a started run) or, when it was refused, to the
 * field at fault, else to the error message. Without this the focus stays
 * on a button that may vanish or go disabled, and drops to the page body.
 */

import { useEffect, type RefObject } from 'react';
import type { ApiError } from '../../shared/api/result.js';
import { errorIsFor } from '../components/ErrorMessage.js';

/** Focuses `ref`'s element after the render in which `key` becomes a new non-null value. */
export function useFocusOn(key: unknown, ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (key !== null && key !== undefined && key !== false) ref.current?.focus();
  }, [key, ref]);
}

/**
 * The control of the field an error names inside `scope` (the most specific
 * [data-field] that the error is for), else the scope's error message.
 */
export function errorTarget(scope: ParentNode, error: ApiError): HTMLElement | null {
  let best: HTMLElement | null = null;
  let bestLength = -1;
  for (const el of scope.querySelectorAll<HTMLElement>('[data-field]')) {
    const field = el.dataset.field ?? '';
    if (!errorIsFor(error, field) || field.length <= bestLength) continue;
    const control = el.matches('input, select, textarea') ? el : el.querySelector<HTMLElement>('input:not([type="hidden"]), select, textarea');
    if (control === null) continue;
    best = control;
    bestLength = field.length;
  }
  return best ?? scope.querySelector<HTMLElement>('[role="alert"]');
}

/** Moves the focus to the field at fault (or the error message) inside `scope` whenever a new error arrives. */
export function useFocusOnError(error: ApiError | null, scope: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (error === null || scope.current === null) return;
    errorTarget(scope.current, error)?.focus();
  }, [error, scope]);
}

/**
 * For forms that mark their controls with aria-invalid themselves (not only
 * through Field's data-field, such as the Generate view's family table, whose
 * error field is a path into a JSON text): the first visible control marked
 * invalid, else what errorTarget finds. A control inside a closed <details>
 * cannot take the focus, so it is passed over.
 */
export function invalidTarget(scope: HTMLElement, error: ApiError): HTMLElement | null {
  for (const el of scope.querySelectorAll<HTMLElement>('input[aria-invalid="true"], select[aria-invalid="true"], textarea[aria-invalid="true"]')) {
    if (el.closest('details:not([open])') === null) return el;
  }
  const named = errorTarget(scope, error);
  if (named !== null && named.closest('details:not([open])') === null) return named;
  return scope.querySelector<HTMLElement>('[role="alert"]');
}

/** useFocusOnError for such forms: the first invalid control, else the field the error names, else the message. */
export function useFocusOnInvalid(error: ApiError | null, scope: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (error === null || scope.current === null) return;
    invalidTarget(scope.current, error)?.focus();
  }, [error, scope]);
}
