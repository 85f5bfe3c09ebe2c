/**
 * A virtualized, sortable table (@tanstack/react-virtual): only the rows in
 * view are in the DOM, rows arrive page by page (usePagedRows). Keyboard:
 * arrows, Page Up/Down, Home/End move the active row, Enter opens it. The
 * whole table is one ARIA grid and one tab stop: the grid element holds the
 * focus and names the active row with aria-activedescendant (a row that is
 * scrolled out of the DOM cannot hold the focus itself).
 */

import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { PagedRows } from './paged-rows.js';

export interface Column<T, S extends string> {
  readonly id: string;
  readonly label: string;
  /** A CSS grid track (`120px`, `2fr`). */
  readonly width: string;
  readonly numeric?: boolean;
  /** The server-side sort column this header sorts by, if any. */
  readonly sort?: S;
  readonly render: (row: T) => ReactNode;
}

export interface SortState<S extends string> {
  readonly column: S;
  readonly direction: 'asc' | 'desc';
}

const ROW_HEIGHT = 36;
/** The header row's height (styles.css .vhead): it stays on top while the rows scroll under it. */
const HEAD_HEIGHT = 34;

export function VirtualTable<T, S extends string>({
  label,
  columns,
  rows,
  sort,
  onSort,
  onOpen,
  rowKey,
  height = 560,
}: {
  label: string;
  columns: readonly Column<T, S>[];
  rows: PagedRows<T>;
  sort: SortState<S>;
  onSort: (sort: SortState<S>) => void;
  onOpen?: (row: T) => void;
  rowKey: (row: T) => string;
  height?: number;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const rowId = `${useId()}-${label}-row-`;
  const [active, setActive] = useState(0);
  const total = rows.total ?? 0;
  // The grid is its own scroll box (so the one tab stop is also what scrolls), the header sticky at its top.
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12, scrollMargin: HEAD_HEIGHT, scrollPaddingStart: HEAD_HEIGHT });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (total > 0) rows.ensure(first, last);
  }, [rows, first, last, total]);
  const template = columns.map((c) => c.width).join(' ');
  // A new order starts at its top (deliberately not on every render: only sort is a dependency).
  useEffect(() => {
    setActive(0);
    virtualizer.scrollToOffset(0);
  }, [sort.column, sort.direction]);

  function move(to: number) {
    const next = Math.max(0, Math.min(total - 1, to));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  }
  function onKeyDown(e: KeyboardEvent) {
    // Keys on the sort buttons in the header are theirs.
    if (e.target !== e.currentTarget) return;
    const page = Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1, PageDown: active + page, PageUp: active - page, Home: 0, End: total - 1 };
    if (e.key in moves) {
      e.preventDefault();
      move(moves[e.key]!);
    } else if (e.key === 'Enter' && onOpen !== undefined) {
      const row = rows.row(active);
      if (row !== undefined) onOpen(row);
    }
  }

  return (
    <div className="vtable" role="grid" aria-label={label} aria-rowcount={total + 1} aria-readonly="true" tabIndex={0} onKeyDown={onKeyDown} aria-activedescendant={total > 0 ? `${rowId}${active}` : undefined} ref={scroller} style={{ height: Math.min(height, Math.max(total, 1) * ROW_HEIGHT + HEAD_HEIGHT + 2) }}>
      <div className="vrow vhead" role="row" style={{ gridTemplateColumns: template }}>
        {columns.map((c) => {
          const sorted = c.sort !== undefined && sort.column === c.sort;
          return (
            <div key={c.id} role="columnheader" className={c.numeric === true ? 'num' : undefined} aria-sort={sorted ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
              {c.sort === undefined ? (
                c.label
              ) : (
                <button type="button" className="sort" data-sort={c.sort} onClick={() => onSort({ column: c.sort!, direction: sorted && sort.direction === 'desc' ? 'asc' : 'desc' })}>
                  {c.label}
                  <span aria-hidden="true">{sorted ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                </button>
              )}
            </div>
          );
        })}
      </div>
      <div className="vbody" style={{ height: virtualizer.getTotalSize() - HEAD_HEIGHT, position: 'relative' }}>
        <div>
          {items.map((item) => {
            const row = rows.row(item.index);
            return (
              <div
                key={row === undefined ? `loading-${item.index}` : rowKey(row)}
                id={`${rowId}${item.index}`}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={item.index === active}
                className={`vrow${item.index === active ? ' active' : ''}${onOpen !== undefined ? ' clickable' : ''}`}
                style={{ gridTemplateColumns: template, transform: `translateY(${item.start - HEAD_HEIGHT}px)`, height: ROW_HEIGHT }}
                onClick={() => {
                  setActive(item.index);
                  if (row !== undefined) onOpen?.(row);
                }}
              >
                {columns.map((c) => (
                  <div key={c.id} role="gridcell" className={c.numeric === true ? 'num' : undefined}>
                    {row === undefined ? <span className="placeholder" /> : c.render(row)}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
