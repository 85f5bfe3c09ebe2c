/**
 * A polite live region whose text a screen reader speaks when it changes,
 * at most once per `intervalMs` (the latest text wins): run progress, the
 * token counter, the replay's step and counts change far faster than
 * anyone can listen. Visually hidden: what it says is on screen already.
 */

import { useEffect, useRef, useState } from 'react';
import { Throttle } from './throttle.js';

const BROWSER_TIMERS = {
  now: () => performance.now(),
  set: (callback: () => void, ms: number) => window.setTimeout(callback, ms),
  clear: (handle: unknown) => window.clearTimeout(handle as number),
};

/** `text`, changing at most once per `intervalMs`. */
export function useThrottledText(text: string, intervalMs = 1000): string {
  const [spoken, setSpoken] = useState(text);
  const throttle = useRef<Throttle | null>(null);
  useEffect(() => {
    const t = new Throttle(intervalMs, setSpoken, BROWSER_TIMERS);
    throttle.current = t;
    return () => t.dispose();
  }, [intervalMs]);
  useEffect(() => throttle.current?.offer(text), [text]);
  return spoken;
}

export function LiveRegion({ text, intervalMs = 1000, testId }: { text: string; intervalMs?: number; testId?: string }) {
  const spoken = useThrottledText(text, intervalMs);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid={testId}>
      {spoken}
    </div>
  );
}
