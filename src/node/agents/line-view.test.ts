import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselineFactory } from '../../core/baselines/registry.js';
import { parseStrictJson } from '../../core/json/strict-parse.js';
import type { Observation } from '../../core/sim/observation.js';
import { EpisodeSimulation } from '../../core/sim/simulation.js';
import { prepareEpisode } from '../../core/world/episode-start.js';
import { parseScenarioText } from '../../core/world/scenario.js';
import { encodeObservationLine } from '../../shared/agent-protocol.js';
import { LineViewCodec } from './line-view.js';

const PUBLIC = resolve(import.meta.dirname, '../../../scenarios/public/v1');
const scenarios = readdirSync(PUBLIC)
  .filter((name) => name.startsWith('v1-pub-'))
  .sort()
  .map((name) => parseScenarioText(readFileSync(join(PUBLIC, name), 'utf8'), name));

interface Delta {
  added: [number, number][];
  dead: number;
  evacuated: number;
  gone: string[];
  moved: { cell: [number, number]; id: string }[];
  step: number;
}

describe('LineViewCodec lines', () => {
  it('writes full lines equal to encodeObservationLine(observe()) and deltas that rebuild them, on every public scenario', async () => {
    let steps = 0;
    for (const scenario of scenarios) {
      for (const seed of ['0', '3']) {
        const sim = new EpisodeSimulation(prepareEpisode(scenario, seed));
        const agent = await baselineFactory('fire-aware-shortest-path-v1')!();
        const full = new LineViewCodec();
        const delta = new LineViewCodec();
        let rebuilt: Observation | undefined;
        while (!sim.done) {
          const view = sim.view();
          full.advance(view);
          delta.advance(view);
          const fullLine = full.fullLine(view);
          const deltaLine = view.step === 0 ? delta.fullLine(view) : delta.deltaLine(view);
          full.remember(view);
          delta.remember(view);
          const observation = sim.observe();
          expect(fullLine).toBe(encodeObservationLine(observation));
          // A delta line is canonical JSON too, and applied to the previous observation gives this one.
          const parsed = parseStrictJson(deltaLine.slice(0, -1)) as unknown;
          if (view.step === 0) rebuilt = parsed as Observation;
          else {
            const d = parsed as Delta;
            expect(Object.keys(d)).toEqual(['added', 'dead', 'evacuated', 'gone', 'moved', 'step']);
            const before = rebuilt!;
            const gone = new Set(d.gone);
            const moved = new Map(d.moved.map((p) => [p.id, p.cell]));
            const burning = [...before.burning, ...d.added].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
            const people = before.people.filter((p) => !gone.has(p.id)).map((p) => ({ cell: moved.get(p.id) ?? p.cell, id: p.id }));
            rebuilt = { ...before, burning, dead: d.dead, evacuated: d.evacuated, people, step: d.step };
          }
          expect(encodeObservationLine(rebuilt!)).toBe(fullLine);
          sim.step(sim.checkActions(await agent.act(observation)));
          steps++;
        }
      }
    }
    expect(steps).toBeGreaterThan(500);
  }, 60_000);
});

describe('LineViewCodec.scanMoves', () => {
  const scenario = scenarios[0]!;
  const sim = new EpisodeSimulation(prepareEpisode(scenario, '0'));
  const view = sim.view();
  const ids = sim.observe().people.map((p) => p.id);
  const letters = ['STAY', 'N', 'E', 'S', 'W'];
  const valid = Object.fromEntries(ids.map((id, k) => [id, letters[k % 5]!]));
  const scan = (line: string): number[] | false => {
    const moves = new Uint8Array(view.count);
    return new LineViewCodec().scanMoves(Buffer.from(line, 'latin1'), view, moves) ? [...moves] : false;
  };
  const expected = ids.map((_, k) => k % 5);

  it('reads exactly the lines that name every active person once with a valid action', () => {
    expect(ids.length).toBeGreaterThan(2);
    expect(scan(JSON.stringify(valid))).toEqual(expected);
    expect(scan(` \t${JSON.stringify(valid, null, 1).replace(/\n/g, ' ')} \r`)).toEqual(expected);
    // Any order of keys.
    expect(scan(JSON.stringify(Object.fromEntries(Object.entries(valid).reverse())))).toEqual(expected);
  });

  it('refuses every other line (the slow path then decodes it and reports its error)', () => {
    const text = JSON.stringify(valid);
    const [first, second] = ids as [string, string];
    const refused = [
      JSON.stringify({ ...valid, p9999: 'N' }),
      JSON.stringify(Object.fromEntries(Object.entries(valid).slice(1))),
      text.replace(`"${first}":"STAY"`, `"${first}":"stay"`),
      text.replace(`"${first}":"STAY"`, `"${first}":"STAYS"`),
      text.replace(`"${second}":"N"`, `"${second}":"NE"`),
      text.replace(`"${first}"`, `"${second}"`),
      text.replace(`"${first}"`, `"p${first.slice(2)}"`),
      text.replace(`"${first}"`, `"${first}0"`),
      text.replace(`"${first}"`, `"\\u0070${first.slice(1)}"`),
      text.replace(`"STAY"`, `"\\u0053TAY"`),
      text + 'x',
      text + '}',
      text.slice(0, -1),
      text.slice(0, -1) + ',}',
      text.replace(':', '::'),
      '[' + text + ']',
      'null',
      '',
      text.replace(`"${first}"`, `"${first}\u00e9"`),
    ];
    for (const line of refused) expect([line, scan(line)]).toEqual([line, false]);
  });
});
