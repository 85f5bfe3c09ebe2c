/**
 * The scene of one replay, three stacked layers in one box, all placed by
 * the same world transform (one cell = CELL units):
 * - the map (walls, floor, exits, fire, the danger zone) and the heat of
 *   blocked moves: one-pixel-per-cell 2D canvases, repainted only when the
 *   whole step changes and scaled up by the browser's compositor (pixelated);
 *   drawing them as full-screen WebGL sprites instead cost ten times the
 *   frame time under software WebGL (bench/replay.ts);
 * - the people, on a transparent pixi.js (v8, WebGL) canvas: one
 *   ParticleContainer whose particles are moved in place every frame (never
 *   a Graphics object per person), interpolated between snapshots from the
 *   typed arrays decoded once. A ring marks the selected person.
 */

// Under the app's Content-Security-Policy (no 'unsafe-eval'), pixi must use its precompiled shader paths.
import 'pixi.js/unsafe-eval';
import { autoDetectRenderer, Container, Graphics, Particle, ParticleContainer, Texture, type Renderer } from 'pixi.js';
import { FRAME_EVACUATED } from '../../core/replay/record-frames.js';
import { paintHeat, paintMap } from './cell-layers.js';
import type { EpisodeData } from './episode-data.js';
import { packedColor, personColor } from './palette.js';

export const CELL = 16;
const DOT = 32;

export interface SceneOptions {
  readonly danger: boolean;
  readonly heat: boolean;
}

function cellCanvas(cols: number, rows: number): { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D; image: ImageData } {
  const canvas = document.createElement('canvas');
  canvas.width = cols;
  canvas.height = rows;
  canvas.className = 'replay-cells';
  const ctx = canvas.getContext('2d')!;
  return { canvas, ctx, image: ctx.createImageData(cols, rows) };
}

function dotTexture(): Texture {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = DOT;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#ffffff';
  ctx.beginPath();
  ctx.arc(DOT / 2, DOT / 2, DOT / 2 - 1, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = 'rgba(255,255,255,0.9)';
  return Texture.from(canvas);
}

export class ReplayScene {
  /** The box holding the three layers: what the view mounts. */
  readonly element: HTMLDivElement;
  /** The WebGL canvas of the people. */
  readonly canvas: HTMLCanvasElement;
  private readonly world = new Container();
  private readonly mapLayer;
  private readonly heatLayer;
  private readonly particles: Particle[] = [];
  private readonly crowd: ParticleContainer;
  private readonly ring = new Graphics();
  private readonly heatScratch: Uint16Array;
  private paintedStep = -1;
  private options: SceneOptions = { danger: true, heat: false };
  private time = 0;
  selected: number | null = null;
  follow = false;
  /** The map is as fit() placed it (no zoom or pan since): a resize fits it again. */
  private wholeMap = true;
  /**
   * Called after every change of the view (fit, zoom, pan, resize), whoever
   * made it (a key, the wheel, a drag, the Fit map button), so what the page
   * says about the view (ReplayCanvas's data-zoom, data-pan-x/y, data-fitted)
   * never lags behind what is drawn.
   */
  onView: (() => void) | null = null;
  /** Milliseconds spent in the last draw (people update plus render submission). */
  lastDrawMs = 0;

  private constructor(
    private readonly renderer: Renderer,
    private readonly data: EpisodeData,
  ) {
    this.canvas = renderer.canvas;
    const { rows, cols } = data.frames;
    this.mapLayer = cellCanvas(cols, rows);
    this.heatLayer = cellCanvas(cols, rows);
    this.heatScratch = new Uint16Array(rows * cols);
    this.element = document.createElement('div');
    this.element.className = 'replay-layers';
    // Styled here (CSSOM, allowed by the app's CSP) so the layers stack wherever the scene is mounted.
    Object.assign(this.element.style, { position: 'relative', overflow: 'hidden', background: '#e9e6de' });
    for (const layer of [this.mapLayer.canvas, this.heatLayer.canvas, this.canvas]) Object.assign(layer.style, { position: 'absolute', left: '0', top: '0' });
    for (const layer of [this.mapLayer.canvas, this.heatLayer.canvas]) Object.assign(layer.style, { transformOrigin: '0 0', imageRendering: 'pixelated' });
    this.element.append(this.mapLayer.canvas, this.heatLayer.canvas, this.canvas);
    this.setBoxSize(renderer.width, renderer.height);
    const dot = dotTexture();
    this.crowd = new ParticleContainer({ texture: dot, dynamicProperties: { position: true, color: true, vertex: false, rotation: false, uvs: false } });
    const scale = (CELL * 0.72) / DOT;
    for (let i = 0; i < data.frames.people; i++) {
      this.particles.push(new Particle({ texture: dot, anchorX: 0.5, anchorY: 0.5, scaleX: scale, scaleY: scale }));
    }
    this.crowd.addParticle(...this.particles);
    this.world.addChild(this.crowd, this.ring);
    this.fit();
  }

  /**
   * No multisampling by default: the dots get their smooth edges from their texture and the cells
   * are meant to be crisp, so MSAA would only multiply the fill cost (4x under software WebGL).
   */
  static async create(data: EpisodeData, width: number, height: number, antialias = false): Promise<ReplayScene> {
    const renderer = await autoDetectRenderer({ preference: 'webgl', width, height, backgroundAlpha: 0, antialias, resolution: 1 });
    return new ReplayScene(renderer, data);
  }

  get size(): { width: number; height: number } {
    return { width: this.renderer.width, height: this.renderer.height };
  }

  setOptions(options: SceneOptions): void {
    this.options = options;
    this.paintedStep = -1;
    this.draw(this.time);
  }

  /**
   * A new canvas size (the window, or the person card opening beside the
   * map). A map the user has not zoomed or panned is fitted again, so the
   * card never hides part of it; otherwise what was at the centre stays there.
   */
  resize(width: number, height: number): void {
    const old = this.size;
    this.renderer.resize(width, height);
    this.setBoxSize(width, height);
    if (this.wholeMap) this.fit();
    else {
      this.world.position.set(this.world.position.x + (width - old.width) / 2, this.world.position.y + (height - old.height) / 2);
      this.draw(this.time);
      this.onView?.();
    }
  }

  private setBoxSize(width: number, height: number): void {
    this.element.style.width = `${width}px`;
    this.element.style.height = `${height}px`;
  }

  /** Places the cell layers where the world transform puts the map. */
  private placeCells(): void {
    const { x, y } = this.world.position;
    const transform = `translate(${x}px, ${y}px) scale(${this.world.scale.x * CELL})`;
    this.mapLayer.canvas.style.transform = transform;
    this.heatLayer.canvas.style.transform = transform;
  }

  /** The world transform: scale (one cell is CELL * scale pixels) and the map's offset in the canvas; `fitted` when the whole map is shown as fit() placed it. */
  get view(): { scale: number; x: number; y: number; fitted: boolean } {
    return { scale: this.world.scale.x, x: this.world.position.x, y: this.world.position.y, fitted: this.wholeMap };
  }

  /** Scales and centres the whole map in the canvas. */
  fit(): void {
    const { rows, cols } = this.data.frames;
    const { width, height } = this.size;
    const scale = Math.min(width / (cols * CELL), height / (rows * CELL));
    this.world.scale.set(scale);
    this.world.position.set((width - cols * CELL * scale) / 2, (height - rows * CELL * scale) / 2);
    this.wholeMap = true;
    this.draw(this.time);
    this.onView?.();
  }

  /** Zooms by `factor` around the canvas point (x, y). */
  zoomAt(x: number, y: number, factor: number): void {
    const old = this.world.scale.x;
    const next = Math.min(40, Math.max(0.02, old * factor));
    const wx = (x - this.world.position.x) / old;
    const wy = (y - this.world.position.y) / old;
    this.world.scale.set(next);
    this.world.position.set(x - wx * next, y - wy * next);
    this.wholeMap = false;
    this.draw(this.time);
    this.onView?.();
  }

  panBy(dx: number, dy: number): void {
    this.world.position.set(this.world.position.x + dx, this.world.position.y + dy);
    this.wholeMap = false;
    this.draw(this.time);
    this.onView?.();
  }

  /** The person drawn nearest to the canvas point (x, y), within one cell, at the current time. */
  pick(x: number, y: number): number | null {
    const scale = this.world.scale.x;
    const wx = (x - this.world.position.x) / scale;
    const wy = (y - this.world.position.y) / scale;
    let best: number | null = null;
    let bestD = CELL * CELL;
    for (let i = 0; i < this.particles.length; i++) {
      const p = this.particles[i]!;
      if (p.color >>> 24 === 0) continue;
      const d = (p.x - wx) ** 2 + (p.y - wy) ** 2;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }

  /** Draws time `t` (fractional steps): people interpolated between snapshots floor(t) and floor(t)+1. */
  draw(t: number): void {
    const began = performance.now();
    const { frames, grid, dangerOnset, loss } = this.data;
    this.time = t;
    const s = Math.min(frames.steps, Math.floor(t + 1e-9));
    const f = s >= frames.steps ? 0 : t - s;
    if (s !== this.paintedStep) {
      paintMap(this.mapLayer.image.data, grid, frames, dangerOnset, s, this.options.danger);
      this.mapLayer.ctx.putImageData(this.mapLayer.image, 0, 0);
      this.heatLayer.canvas.style.visibility = this.options.heat ? 'visible' : 'hidden';
      if (this.options.heat) {
        paintHeat(this.heatLayer.image.data, frames, s, this.heatScratch);
        this.heatLayer.ctx.putImageData(this.heatLayer.image, 0, 0);
      }
      this.paintedStep = s;
    }
    const { people, cells, status, cols } = frames;
    const from = s * people;
    const to = Math.min(frames.steps, s + 1) * people;
    const half = CELL / 2;
    for (let i = 0; i < people; i++) {
      const p = this.particles[i]!;
      const st = status[from + i]!;
      if (st === FRAME_EVACUATED) {
        p.color = 0;
        continue;
      }
      const a = cells[from + i]!;
      const b = cells[to + i]!;
      const ar = (a / cols) | 0;
      const br = (b / cols) | 0;
      p.x = ((a - ar * cols) * (1 - f) + (b - br * cols) * f) * CELL + half;
      p.y = (ar * (1 - f) + br * f) * CELL + half;
      // Someone leaving through an exit this step fades out as they reach it.
      const leaving = status[to + i] === FRAME_EVACUATED;
      p.color = packedColor(personColor(st, loss[i]!), leaving ? 1 - f * 0.8 : 1);
    }
    this.drawRing();
    this.placeCells();
    this.renderer.render(this.world);
    this.lastDrawMs = performance.now() - began;
  }

  private drawRing(): void {
    this.ring.clear();
    if (this.selected === null) return;
    const p = this.particles[this.selected]!;
    this.ring.circle(p.x, p.y, CELL * 0.75).stroke({ width: 2.5 / Math.max(0.2, this.world.scale.x) + 1, color: 0x111827 });
    if (this.follow) {
      const { width, height } = this.size;
      const scale = this.world.scale.x;
      this.world.position.set(width / 2 - p.x * scale, height / 2 - p.y * scale);
    }
  }

  /** A PNG of what is drawn now: the layers composed in one task (so no preserved WebGL buffer is needed). */
  toPng(): string {
    const { width, height } = this.size;
    const out = document.createElement('canvas');
    out.width = width;
    out.height = height;
    const ctx = out.getContext('2d')!;
    ctx.fillStyle = '#e9e6de';
    ctx.fillRect(0, 0, width, height);
    ctx.imageSmoothingEnabled = false;
    const scale = this.world.scale.x * CELL;
    const { x, y } = this.world.position;
    const { cols, rows } = this.data.frames;
    ctx.drawImage(this.mapLayer.canvas, x, y, cols * scale, rows * scale);
    if (this.options.heat) ctx.drawImage(this.heatLayer.canvas, x, y, cols * scale, rows * scale);
    this.renderer.render(this.world);
    ctx.drawImage(this.canvas, 0, 0);
    return out.toDataURL('image/png');
  }

  destroy(): void {
    this.element.remove();
    this.world.destroy({ children: true });
    this.renderer.destroy();
  }
}
