/**
 * The pacing of spoken announcements: a screen reader that is handed a new
 * text on every animation frame or progress event speaks none of them to
 * the end. A Throttle passes the first text at once, then at most one text
 * per interval: the latest one, once the interval is over. Time comes from
 * the caller, so it is tested without a clock.
 */

export interface ThrottleTimers {
  now(): number;
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export class Throttle {
  private lastAt = Number.NEGATIVE_INFINITY;
  private pending: string | null = null;
  private handle: unknown = null;
  private lastSent: string | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly send: (text: string) => void,
    private readonly timers: ThrottleTimers,
  ) {}

  /** Offers a text; equal consecutive texts are said once. */
  offer(text: string): void {
    if (text === this.lastSent && this.handle === null) return;
    const wait = this.lastAt + this.intervalMs - this.timers.now();
    if (wait <= 0 && this.handle === null) {
      this.emit(text);
      return;
    }
    this.pending = text;
    if (this.handle === null) this.handle = this.timers.set(() => this.flush(), Math.max(0, wait));
  }

  dispose(): void {
    if (this.handle !== null) this.timers.clear(this.handle);
    this.handle = null;
    this.pending = null;
  }

  private flush(): void {
    this.handle = null;
    const text = this.pending;
    this.pending = null;
    if (text !== null && text !== this.lastSent) this.emit(text);
  }

  private emit(text: string): void {
    this.lastAt = this.timers.now();
    this.lastSent = text;
    this.send(text);
  }
}
