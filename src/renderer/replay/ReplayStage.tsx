/**
 * One drawn episode with its live counts, layer switches, legend and the
 * evidence of the person clicked. Several stages can share one clock (the
 * Compare view); each clamps the clock's time to its own episode's length.
 */

import { useId, useMemo, useRef, useState } from 'react';
import { LiveRegion } from '../a11y/live-region.js';
import { replayStepText, stepCounts, whereIs } from '../a11y/replay-step-text.js';
import { FRAME_ACTIVE, FRAME_DEAD, FRAME_EVACUATED, FRAME_STRANDED } from '../../core/replay/record-frames.js';
import { personId } from '../../core/sim/observation.js';
import type { PlaybackClock } from './clock.js';
import { LOSS_AVOIDABLE, LOSS_UNAVOIDABLE, outcomeOf, referenceText, type EpisodeData } from './episode-data.js';
import { cssColor, LEGEND } from './palette.js';
import { ReplayCanvas } from './ReplayCanvas.js';
import { StepObservation } from './StepObservation.js';
import { useClockStep } from './ReplayControls.js';
import type { ReplayScene, SceneOptions } from './scene.js';
import './replay.css';

const STATUS_NAMES = ['active', 'evacuated', 'dead', 'stranded'] as const;

export function ReplayCounts({ data, step }: { data: EpisodeData; step: number }) {
  const s = Math.min(step, data.frames.steps);
  const c = data.frames.counts;
  const k = s * 4;
  return (
    <p className="replay-counts" data-testid="replay-counts">
      <span data-count="active">active {c[k + FRAME_ACTIVE]}</span>
      <span data-count="evacuated">evacuated {c[k + FRAME_EVACUATED]}</span>
      <span data-count="dead">dead {c[k + FRAME_DEAD]}</span>
      <span data-count="stranded">stranded {c[k + FRAME_STRANDED]}</span>
    </p>
  );
}

function PersonEvidence({ data, person, step, follow, onFollow, onClose }: { data: EpisodeData; person: number; step: number; follow: boolean; onFollow: (on: boolean) => void; onClose: () => void }) {
  const refs = useMemo(() => data.references(), [data]);
  const { frames, outcomes, loss, hasEvidence } = data;
  const s = Math.min(step, frames.steps);
  const cell = frames.cells[s * frames.people + person]!;
  // Snapshot 0 holds every person's start cell.
  const start = frames.cells[person]!;
  const [r0, c0] = [Math.floor(start / frames.cols), start % frames.cols];
  const lost = outcomes[person]?.[0] !== 'evacuated';
  const avoidable = !hasEvidence ? 'no score evidence for this trial' : !lost ? 'not lost' : loss[person] === LOSS_AVOIDABLE ? 'avoidable (counts against the model)' : loss[person] === LOSS_UNAVOIDABLE ? 'unavoidable (no escape existed)' : 'not classed';
  return (
    <aside className="person-card" data-testid="person-evidence" aria-label={`Person ${personId(person)}`}>
      <div className="card-head">
        <h3>Person {personId(person)}</h3>
        <button type="button" className="link" onClick={onClose}>
          Close
        </button>
      </div>
      <dl>
        <dt>Start cell</dt>
        <dd>
          [{r0}, {c0}]
        </dd>
        <dt>
          L<sub>i</sub> (earliest possible evacuation step)
        </dt>
        <dd>{referenceText(refs.earliest[person]!)}</dd>
        <dt>
          m*<sub>i</sub> (fewest moves of an escape)
        </dt>
        <dd>{referenceText(refs.fewestMoves[person]!)}</dd>
        <dt>
          D*<sub>i</sub> (fewest danger-zone states)
        </dt>
        <dd>{referenceText(refs.fewestDanger[person]!)}</dd>
        <dt>Outcome</dt>
        <dd data-testid="person-outcome">{outcomeOf(data, person)}</dd>
        <dt>Loss</dt>
        <dd>{avoidable}</dd>
        <dt>Now (step {s})</dt>
        <dd>
          {STATUS_NAMES[frames.status[s * frames.people + person]!]} at [{Math.floor(cell / frames.cols)}, {cell % frames.cols}]
        </dd>
      </dl>
      <label className="check">
        <input type="checkbox" checked={follow} onChange={(e) => onFollow(e.target.checked)} /> Follow this person
      </label>
    </aside>
  );
}

export interface ReplayStageProps {
  readonly data: EpisodeData;
  readonly clock: PlaybackClock;
  readonly label: string;
  readonly height?: number;
  readonly onScene?: (scene: ReplayScene | null) => void;
}

export function ReplayStage({ data, clock, label, height, onScene }: ReplayStageProps) {
  const { step } = useClockStep(clock);
  const [options, setOptions] = useState<SceneOptions>({ danger: true, heat: false });
  const [selected, setSelected] = useState<number | null>(null);
  const [follow, setFollow] = useState(false);
  const scene = useRef<ReplayScene | null>(null);
  const mapLabel = `${label}: replay of ${data.scenarioId}, ${data.frames.rows} by ${data.frames.cols} cells, ${data.frames.people} people, ${data.frames.steps} steps`;
  const textId = useId();
  const s = Math.min(step, data.frames.steps);
  // Spoken at most once a second while it plays: the step, the counts and the chosen person.
  const spoken = `${label}: step ${s} of ${data.frames.steps}, ${stepCounts(data.frames, s)}${selected !== null ? `; ${personId(selected)} ${whereIs(data.frames, s, selected)}${follow ? ', followed' : ''}` : ''}`;
  return (
    <div className="replay-stage" data-steps={data.frames.steps} data-people={data.frames.people}>
      <div className="replay-bar">
        <ReplayCounts data={data} step={step} />
        <span className="spacer" />
        <button type="button" className="small" onClick={() => scene.current?.fit()} title="Show the whole map again after zooming or panning">
          Fit map
        </button>
        <label className="check">
          <input type="checkbox" checked={options.danger} onChange={(e) => setOptions({ ...options, danger: e.target.checked })} /> Danger zone
        </label>
        <label className="check">
          <input type="checkbox" checked={options.heat} onChange={(e) => setOptions({ ...options, heat: e.target.checked })} /> Blocked moves (heat)
        </label>
      </div>
      <div className="replay-main">
        <ReplayCanvas
          data={data}
          clock={clock}
          options={options}
          selected={selected}
          follow={follow}
          onPick={(p) => {
            setSelected(p);
            if (p === null) setFollow(false);
          }}
          onFollow={setFollow}
          describedBy={textId}
          onScene={(made) => {
            scene.current = made;
            onScene?.(made);
          }}
          height={height}
          label={mapLabel}
        />
        {selected !== null && (
          <PersonEvidence
            data={data}
            person={selected}
            step={step}
            follow={follow}
            onFollow={setFollow}
            onClose={() => {
              setSelected(null);
              setFollow(false);
            }}
          />
        )}
      </div>
      {selected !== null && <StepObservation data={data} person={selected} step={step} />}
      <p id={textId} className="visually-hidden" data-testid="replay-step-text">
        {replayStepText(data.frames, s, selected)}
      </p>
      <LiveRegion text={spoken} />
      <p className="replay-legend small muted">
        {LEGEND.map((l) => (
          <span key={l.label}>
            <i className="swatch" style={{ background: cssColor(l.color) }} />
            {l.label}
          </span>
        ))}
        <span>· wheel or + − to zoom, drag or Shift+arrows to pan, click a person (or N / P on the focused map) for their evidence</span>
        {!data.hasEvidence && <span>· no score report: losses are not classed avoidable or unavoidable</span>}
      </p>
    </div>
  );
}
