/**
 * A scenario's map drawn on a canvas from the scenario text, parsed by the
 * core library (the same strict parser the benchmark uses): walls, exits,
 * people zones and cells, scheduled ignitions and ignition candidates.
 */

import { useEffect, useMemo, useRef } from 'react';
import { EXIT, WALL } from '../../core/world/grid.js';
import { parseScenarioText } from '../../core/world/scenario.js';
import type { Scenario } from '../../core/world/scenario-types.js';
import { count } from './format.js';

const COLORS = { wall: '#3b4250', floor: '#f4f1ea', exit: '#2f9e62', people: 'rgba(46, 110, 214, 0.2)', person: '#2e6ed6', ignition: '#d9480f', candidate: 'rgba(240, 140, 0, 0.75)' };

function parse(text: string, source: string): { scenario: Scenario } | { error: string } {
  try {
    return { scenario: parseScenarioText(text, source) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function draw(canvas: HTMLCanvasElement, s: Scenario, maxWidth: number): void {
  const { rows, cols, kinds } = s.grid;
  const cell = Math.max(2, Math.min(14, Math.floor(maxWidth / cols)));
  const ratio = window.devicePixelRatio || 1;
  canvas.width = cols * cell * ratio;
  canvas.height = rows * cell * ratio;
  canvas.style.width = `${cols * cell}px`;
  canvas.style.height = `${rows * cell}px`;
  const g = canvas.getContext('2d');
  if (g === null) return;
  g.scale(ratio, ratio);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const k = kinds[r * cols + c];
      g.fillStyle = k === WALL ? COLORS.wall : k === EXIT ? COLORS.exit : COLORS.floor;
      g.fillRect(c * cell, r * cell, cell, cell);
    }
  }
  const at = (i: number) => [(i % cols) * cell, Math.floor(i / cols) * cell] as const;
  // People zones tint only their open cells, so walls inside a zone stay walls.
  g.fillStyle = COLORS.people;
  for (const p of s.placements) {
    if (p.kind !== 'zone') continue;
    for (let r = p.r0; r <= p.r1; r++) for (let c = p.c0; c <= p.c1; c++) if (kinds[r * cols + c] !== WALL) g.fillRect(c * cell, r * cell, cell, cell);
  }
  g.fillStyle = COLORS.candidate;
  for (const i of s.candidateCells) {
    const [x, y] = at(i);
    g.fillRect(x, y, cell, cell);
  }
  for (const p of s.placements) {
    if (p.kind === 'zone') {
      g.strokeStyle = COLORS.person;
      g.lineWidth = 1;
      g.strokeRect(p.c0 * cell + 0.5, p.r0 * cell + 0.5, (p.c1 - p.c0 + 1) * cell - 1, (p.r1 - p.r0 + 1) * cell - 1);
    } else {
      const [x, y] = at(p.cell);
      g.fillStyle = COLORS.person;
      g.beginPath();
      g.arc(x + cell / 2, y + cell / 2, cell / 3, 0, Math.PI * 2);
      g.fill();
    }
  }
  g.fillStyle = COLORS.ignition;
  for (const ig of s.ignitions) {
    const [x, y] = at(ig.cell);
    g.beginPath();
    g.moveTo(x + cell / 2, y + 1);
    g.lineTo(x + cell - 1, y + cell - 1);
    g.lineTo(x + 1, y + cell - 1);
    g.closePath();
    g.fill();
  }
}

export function ScenarioPreview({ text, source, maxWidth = 320 }: { text: string; source: string; maxWidth?: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const parsed = useMemo(() => parse(text, source), [text, source]);
  useEffect(() => {
    if (canvas.current !== null && 'scenario' in parsed) draw(canvas.current, parsed.scenario, maxWidth);
  }, [parsed, maxWidth]);
  if ('error' in parsed) return <div className="error small">This scenario does not parse: {parsed.error}</div>;
  const s = parsed.scenario;
  const ignitions = s.ignitions.length > 0 ? `${s.ignitions.length} scheduled ignition${s.ignitions.length === 1 ? '' : 's'}` : `${s.candidateCount} of ${s.candidateCells.length} candidate cells ignite`;
  return (
    <figure className="preview">
      <canvas ref={canvas} role="img" aria-label={`Map of ${s.scenarioId}: ${s.grid.rows} by ${s.grid.cols} cells, ${count(s.grid.exits.length, 'exit cell')}, ${count(s.population, 'person', 'people')}, ${ignitions}`} />
      <figcaption>
        {s.grid.rows}×{s.grid.cols} · {count(s.grid.exits.length, 'exit cell')} · {count(s.population, 'person', 'people')} · {ignitions} · spread {s.spreadProbability} · {s.maxSteps} steps
      </figcaption>
    </figure>
  );
}

export function PreviewLegend() {
  const items: [string, string][] = [
    ['Wall', COLORS.wall],
    ['Exit', COLORS.exit],
    ['People', COLORS.person],
    ['Ignition', COLORS.ignition],
    ['Ignition candidate', COLORS.candidate],
  ];
  return (
    <div className="legend">
      {items.map(([label, color]) => (
        <span key={label}>
          <i className="swatch" ref={(el) => el?.style.setProperty('background', color)} />
          {label}
        </span>
      ))}
    </div>
  );
}
