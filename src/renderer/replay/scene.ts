/**
 * The pixi.js (v8, WebGL) scene of one replay. Three layers in world units
 * (one cell = CELL units): the map picture (walls, floor, exits, fire, the
 * danger zone) and the heat picture, each a one-pixel-per-cell texture
 * scaled up and repainted only when the whole step changes; and the people,
 * one ParticleContainer whose particles are moved in place every frame
 * (never a Graphics object per person), interpolated between snapshots from
 * the typed arrays decoded once. A ring marks the selected person.
 */

// Under the app's Content-Security-Policy (no 'unsafe-eval'), pixi must use its precompiled shader paths.
import 'pixi.js/unsafe-eval';
import { autoDetectRenderer, Container, Graphics, Particle, ParticleContainer, Sprite, Texture, type Renderer } from 'pixi.js';
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
  readonly canvas: HTMLCanvasElement;
  private readonly world = new Container();
  private readonly mapLayer;
  private readonly heatLayer;
  private readonly mapSprite: Sprite;
  private readonly heatSprite: Sprite;
  private readonly particles: Particle[] = [];
  private readonly crowd: ParticleContainer;
  private readonly ring = new Graphics();
  private readonly heatScratch: Uint16Array;
  private paintedStep = -1;
  private options: SceneOptions = { danger: true, heat: false };
  private time = 0;
  selected: number | null = null;
  follow = false;
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
    const mapTexture = Texture.from(this.mapLayer.canvas);
    const heatTexture = Texture.from(this.heatLayer.canvas);
    mapTexture.source.scaleMode = 'nearest';
    heatTexture.source.scaleMode = 'nearest';
    this.mapSprite = new Sprite(mapTexture);
    this.heatSprite = new Sprite(heatTexture);
    this.mapSprite.scale.set(CELL);
    this.heatSprite.scale.set(CELL);
    const dot = dotTexture();
    this.crowd = new ParticleContainer({ texture: dot, dynamicProperties: { position: true, color: true, vertex: false, rotation: false, uvs: false } });
    const scale = (CELL * 0.72) / DOT;
    for (let i = 0; i < data.frames.people; i++) {
      this.particles.push(new Particle({ texture: dot, anchorX: 0.5, anchorY: 0.5, scaleX: scale, scaleY: scale }));
    }
    this.crowd.addParticle(...this.particles);
    this.world.addChild(this.mapSprite, this.heatSprite, this.crowd, this.ring);
    this.fit();
  }

  static async create(data: EpisodeData, width: number, height: number, antialias = true): Promise<ReplayScene> {
    const renderer = await autoDetectRenderer({ preference: 'webgl', width, height, background: 0xe9e6de, antialias, resolution: 1 });
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

  resize(width: number, height: number): void {
    this.renderer.resize(width, height);
    this.draw(this.time);
  }

  /** Scales and centres the whole map in the canvas. */
  fit(): void {
    const { rows, cols } = this.data.frames;
    const { width, height } = this.size;
    const scale = Math.min(width / (cols * CELL), height / (rows * CELL));
    this.world.scale.set(scale);
    this.world.position.set((width - cols * CELL * scale) / 2, (height - rows * CELL * scale) / 2);
    this.draw(this.time);
  }

  /** Zooms by `factor` around the canvas point (x, y). */
  zoomAt(x: number, y: number, factor: number): void {
    const old = this.world.scale.x;
    const next = Math.min(40, Math.max(0.02, old * factor));
    const wx = (x - this.world.position.x) / old;
    const wy = (y - this.world.position.y) / old;
    this.world.scale.set(next);
    this.world.position.set(x - wx * next, y - wy * next);
    this.draw(this.time);
  }

  panBy(dx: number, dy: number): void {
    this.world.position.set(this.world.position.x + dx, this.world.position.y + dy);
    this.draw(this.time);
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
    const { frames, scenario, dangerOnset, loss } = this.data;
    this.time = t;
    const s = Math.min(frames.steps, Math.floor(t + 1e-9));
    const f = s >= frames.steps ? 0 : t - s;
    if (s !== this.paintedStep) {
      paintMap(this.mapLayer.image.data, scenario.grid, frames, dangerOnset, s, this.options.danger);
      this.mapLayer.ctx.putImageData(this.mapLayer.image, 0, 0);
      this.mapSprite.texture.source.update();
      this.heatSprite.visible = this.options.heat;
      if (this.options.heat) {
        paintHeat(this.heatLayer.image.data, frames, s, this.heatScratch);
        this.heatLayer.ctx.putImageData(this.heatLayer.image, 0, 0);
        this.heatSprite.texture.source.update();
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

  /** A PNG of what is drawn now (rendered and read in one task, so no preserved buffer is needed). */
  toPng(): string {
    this.renderer.render(this.world);
    return this.canvas.toDataURL('image/png');
  }

  destroy(): void {
    this.world.destroy({ children: true });
    this.renderer.destroy();
  }
}
