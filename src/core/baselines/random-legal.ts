/**
 * random-legal-v1: a uniformly random legal action per person.
 *
 * The generator is xoshiro128** started, fresh for every agent, from the
 * fixed state RANDOM_LEGAL_SEED: the first 16 bytes of
 * SHA-256("random-legal-v1") as four little-endian uint32 words (the same
 * rule as the scenario streams, so Python can reproduce it). Per step,
 * persons in person order each draw once: with the options
 * [STAY, then the legal moves in the order N, E, S, W], the action is
 * options[uniform(options.length)]. So every episode of one scenario starts
 * the same stream, and the agent never reads the seed or the clock.
 */

import { ACTIONS, type Action, type ActionSet } from '../sim/actions.js';
import { ACT_ON_VIEW, type MoveView, type ViewAgent } from '../sim/move-view.js';
import type { Observation } from '../sim/observation.js';
import { Xoshiro128ss } from '../world/rng.js';
import { ObservedWorld } from './observed-world.js';

export const RANDOM_LEGAL_SEED: readonly [number, number, number, number] = [0x17a4d214, 0x4d4f9063, 0x791a4235, 0xc420c1f5];

export class RandomLegalAgent implements ViewAgent {
  private world: ObservedWorld | undefined;
  private readonly rng = new Xoshiro128ss(RANDOM_LEGAL_SEED);
  private readonly options = new Uint8Array(5);

  act(observation: Observation): ActionSet {
    const world = (this.world ??= new ObservedWorld(observation.map));
    world.update(observation);
    const out: Record<string, Action> = {};
    const people = observation.people;
    for (let i = 0; i < people.length; i++) out[people[i]!.id] = ACTIONS[this.draw(world, world.cells[i]!)]!;
    return out;
  }

  [ACT_ON_VIEW](view: MoveView, moves: Uint8Array): void {
    const world = (this.world ??= new ObservedWorld(view.map));
    world.updateFromView(view);
    for (let i = 0; i < view.count; i++) moves[i] = this.draw(world, world.cells[i]!);
  }

  /** One person's draw: options[uniform(options.length)] with options = [STAY, legal moves N E S W]. */
  private draw(world: ObservedWorld, cell: number): number {
    const options = this.options;
    let count = 1;
    options[0] = 0;
    for (let dir = 1; dir <= 4; dir++) if (world.legalTarget(cell, dir) >= 0) options[count++] = dir;
    return options[this.rng.uniform(count)]!;
  }
}
