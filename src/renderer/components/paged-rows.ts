/**
 * Rows of a large server-side list, fetched page by page as the virtualized
 * table scrolls to them: only the visible pages are ever requested, so the
 * table stays fast with 100,000 archived rows. A new `key` (sort or filter)
 * starts over; an `archive.changed` event that touches `topics`
 * (archive-changes.ts) refetches the pages already seen.
 */

import { useCallback, useEffect, useRef, useState } from 'react';
import type { PageOf } from '../../shared/api/contract.js';
import type { ApiError, ApiResult } from '../../shared/api/result.js';
import { useEvent } from '../app/api-context.js';
import { touches, type ArchiveTopic } from '../app/archive-changes.js';

export const PAGE_SIZE = 200;

export interface PagedRows<T> {
  readonly total: number | null;
  readonly error: ApiError | null;
  row(index: number): T | undefined;
  /** Makes sure the rows start..end (inclusive) are fetched. */
  ensure(start: number, end: number): void;
}

export function usePagedRows<T>(fetchPage: (offset: number, limit: number) => Promise<ApiResult<PageOf<T>>>, key: string, topics: readonly ArchiveTopic[]): PagedRows<T> {
  const pages = useRef(new Map<number, readonly T[]>());
  const inFlight = useRef(new Set<number>());
  const generation = useRef(0);
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [, setVersion] = useState(0);

  const load = useCallback((page: number) => {
    if (inFlight.current.has(page)) return;
    inFlight.current.add(page);
    const gen = generation.current;
    void fetchRef.current(page * PAGE_SIZE, PAGE_SIZE).then((result) => {
      if (gen !== generation.current) return; // the sort or filter changed meanwhile
      inFlight.current.delete(page);
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setError(null);
      pages.current.set(page, result.value.rows);
      setTotal(result.value.total);
      setVersion((v) => v + 1);
    });
  }, []);

  const reset = useCallback(
    (keepPages: boolean) => {
      const seen = [...pages.current.keys()];
      generation.current++;
      inFlight.current.clear();
      // A new sort or filter drops the rows but keeps the last total, so the
      // table stays mounted (and keeps focus) with placeholders until page 0 lands.
      if (!keepPages) pages.current.clear();
      for (const p of seen.length === 0 || !keepPages ? [0] : seen) load(p);
    },
    [load],
  );

  useEffect(() => reset(false), [key, reset]);
  const topicsRef = useRef(topics);
  topicsRef.current = topics;
  useEvent('archive.changed', (change) => {
    if (touches(change, topicsRef.current)) reset(true);
  });

  return {
    total,
    error,
    row: (index) => pages.current.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE],
    ensure: (start, end) => {
      for (let p = Math.floor(start / PAGE_SIZE); p <= Math.floor(end / PAGE_SIZE); p++) if (!pages.current.has(p)) load(p);
    },
  };
}
