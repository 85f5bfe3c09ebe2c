/**
 * The step view, for every kind of agent: what the chosen person's agent
 * saw at the replay's current step and the action it gave them, rebuilt
 * from the authenticated record (core/replay/step-observation.ts) for this
 * one step only. The whole observation is turned into text only when it is
 * unfolded or downloaded, so playing a large world does not pay for it.
 */

import { useMemo, useState } from 'react';
import { observationAt, personStepAt, type PersonStep } from '../../core/replay/step-observation.js';
import { personId } from '../../core/sim/observation.js';
import { count } from '../components/format.js';
import type { EpisodeData } from './episode-data.js';
import { actionWords, stepWindow, WINDOW_KEY } from './step-window.js';

/** The observation shown as text up to this many characters; beyond, the download has it whole. */
const SHOWN_CHARACTERS = 200_000;

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

function movedText(action: PersonStep | null): string {
  if (action === null) return '–';
  if (action.action === 'STAY') return 'stayed put, as asked';
  if (action.moved === 'STAY') return 'blocked: stayed put (the cell was taken or could not be entered)';
  return `moved ${actionWords(action.moved)}`;
}

export function StepObservation({ data, person, step }: { data: EpisodeData; person: number; step: number }) {
  const s = Math.min(step, data.frames.steps);
  const id = personId(person);
  const observation = useMemo(() => observationAt(data.grid, data.frames, data.maxSteps, s), [data, s]);
  const action = useMemo(() => personStepAt(data.trajectory, data.frames, s, person), [data, s, person]);
  const around = useMemo(() => stepWindow(observation, id), [observation, id]);
  const [open, setOpen] = useState(false);
  const json = useMemo(() => (open ? JSON.stringify(observation, null, 1) : ''), [open, observation]);
  const position = observation.people.findIndex((p) => p.id === id);
  return (
    <section className="card step-view" data-testid="step-view" aria-labelledby={`step-view-${id}`}>
      <div className="card-head">
        <h3 id={`step-view-${id}`}>
          Step {s}: what the agent saw and did for {id}
        </h3>
      </div>
      <dl className="step-facts">
        <dt>Action the agent gave</dt>
        <dd data-testid="step-action">
          {action === null ? (s === data.frames.steps ? 'none: the episode ended at this step' : `none: ${id} was not in the building at this step`) : actionWords(action.action)}
        </dd>
        <dt>What happened</dt>
        <dd data-testid="step-moved">{movedText(action)}</dd>
        <dt>In the observation</dt>
        <dd data-testid="step-entry">
          {position < 0 ? `not listed (only people still inside are)` : `people[${position}] of ${observation.people.length}: {"id":"${id}","cell":[${observation.people[position]!.cell.join(',')}]}`}
        </dd>
        <dt>Also in it</dt>
        <dd>
          step {observation.step} of max_steps {observation.max_steps}; {count(observation.burning.length, 'burning cell')}; {count(observation.exits.length, 'exit cell')}; evacuated {observation.evacuated}, dead {observation.dead}
        </dd>
      </dl>
      {around !== null && (
        <figure className="step-window">
          <pre aria-label={`The map around ${id} in the observation, ${around.length} by ${around.length} cells`} data-testid="step-window">
            {around.join('\n')}
          </pre>
          <figcaption className="small muted">{WINDOW_KEY}</figcaption>
        </figure>
      )}
      <details onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>The whole observation the agent received at step {s} (JSON)</summary>
        {open && (
            <pre className="step-json" data-testid="step-json" tabIndex={0} aria-label={`Observation at step ${s}, JSON`}>
              {json.length > SHOWN_CHARACTERS ? `${json.slice(0, SHOWN_CHARACTERS)}\n… (${json.length - SHOWN_CHARACTERS} more characters: download it to read it whole)` : json}
            </pre>
        )}
      </details>
      <button type="button" className="small" onClick={() => download(`${data.scenarioId}-step-${s}-observation.json`, JSON.stringify(observation) + '\n')}>
        Download this observation (JSON)
      </button>
      <p className="small muted">Rebuilt from the checked run record, as the environment produced it at this step: the same observation for every kind of agent (built-in, module, command or language model).</p>
    </section>
  );
}
