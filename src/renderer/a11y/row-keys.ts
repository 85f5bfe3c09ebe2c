/**
 * Keys of a table whose rows open something (Leaderboard, Compare's paired
 * episodes): every row is a tab stop, Enter or Space opens it, ↑ and ↓ move
 * to the row above or below.
 */

import type { KeyboardEvent } from 'react';

export function rowKeys(open: () => void): (event: KeyboardEvent<HTMLTableRowElement>) => void {
  return (event) => {
    if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const next = event.key === 'ArrowDown' ? event.currentTarget.nextElementSibling : event.currentTarget.previousElementSibling;
      if (next instanceof HTMLElement) {
        event.preventDefault();
        next.focus();
      }
    }
  };
}
