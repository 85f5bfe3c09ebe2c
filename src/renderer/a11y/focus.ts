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
