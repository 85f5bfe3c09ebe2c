/**
 * The playback clock: the time in steps (fractional between two snapshots,
 * which is what the smooth interpolation draws), playing or paused, and the
 * speed. One clock can drive several replays (the Compare view's lockstep):
 * every listener is told on each animation frame while playing, and on
 * every seek. Kept outside React so a frame never re-renders a component.
 */

/** Snapshots per second at 1x. */
export const STEPS_PER_SECOND = 4;
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;

export type ClockListener = (clock: PlaybackClock) => void;

/** Where animation frames come from: the browser's, or a test's hand-driven one. */
export interface FrameScheduler {
  request(callback: (now: number) => void): number;
  cancel(id: number): void;
  now(): number;
}

interface AnimationGlobals {
  requestAnimationFrame(callback: (now: number) => void): number;
  cancelAnimationFrame(id: number): void;
}

/** A browser global by name: the tests' program compiles without the DOM lib that types these. */
function animationGlobal<K extends keyof AnimationGlobals>(name: K): AnimationGlobals[K] {
  return Reflect.get(globalThis, name);
}

const browserFrames: FrameScheduler = {
  request: (callback) => animationGlobal('requestAnimationFrame').call(globalThis, callback),
  cancel: (id) => animationGlobal('cancelAnimationFrame').call(globalThis, id),
  now: () => performance.now(),
};

export class PlaybackClock {
  private t = 0;
  private playingNow = false;
  private speedNow = 1;
  private frame = 0;
  private last = 0;
  private readonly listeners = new Set<ClockListener>();

  constructor(
    private maxSteps: number,
    private readonly frames: FrameScheduler = browserFrames,
  ) {}

  /** Time in steps, 0..maxSteps. */
  get time(): number {
    return this.t;
  }
  /** The snapshot shown (the last whole step reached). */
  get step(): number {
    return Math.floor(this.t + 1e-9);
  }
  get playing(): boolean {
    return this.playingNow;
  }
  get speed(): number {
    return this.speedNow;
  }
  get max(): number {
    return this.maxSteps;
  }

  /**
   * A new length: a time past it is clamped; a clock standing at its end
   * stays at the end when the length grows (in a lockstep replay, End
   * pressed before the longer side had loaded still means the last step).
   */
  setMax(maxSteps: number): void {
    const atEnd = this.maxSteps > 0 && this.t === this.maxSteps && !this.playingNow;
    this.maxSteps = maxSteps;
    if (this.t > maxSteps || (atEnd && maxSteps > this.t)) this.seek(maxSteps);
    else this.emit();
  }

  subscribe(listener: ClockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  seek(time: number): void {
    this.t = Math.min(this.maxSteps, Math.max(0, time));
    this.emit();
  }

  /** One whole step forward or back from the current snapshot (pauses). */
  stepBy(delta: number): void {
    this.pause();
    this.seek(this.step + delta);
  }

  setSpeed(speed: number): void {
    this.speedNow = speed;
    this.emit();
  }

  play(): void {
    if (this.playingNow) return;
    if (this.t >= this.maxSteps) this.t = 0;
    this.playingNow = true;
    this.last = this.frames.now();
    this.frame = this.frames.request(this.tick);
    this.emit();
  }

  pause(): void {
    if (!this.playingNow) return;
    this.playingNow = false;
    this.frames.cancel(this.frame);
    this.emit();
  }

  toggle(): void {
    if (this.playingNow) this.pause();
    else this.play();
  }

  dispose(): void {
    this.frames.cancel(this.frame);
    this.playingNow = false;
    this.listeners.clear();
  }

  private readonly tick = (now: number): void => {
    if (!this.playingNow) return;
    // A long pause between frames (a hidden tab) jumps at most a quarter second of playback.
    const dt = Math.min(now - this.last, 250);
    this.last = now;
    this.t = Math.min(this.maxSteps, this.t + (dt / 1000) * STEPS_PER_SECOND * this.speedNow);
    if (this.t >= this.maxSteps) {
      this.playingNow = false;
      this.emit();
      return;
    }
    this.emit();
    this.frame = this.frames.request(this.tick);
  };

  private emit(): void {
    for (const listener of this.listeners) listener(this);
  }
}
