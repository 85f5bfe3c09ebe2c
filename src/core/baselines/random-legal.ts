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
import type { Agent } from '../sim/agent.js';
import type { Observation } from '../sim/observation.js';
import { Xoshiro128ss } from '../world/rng.js';
import { ObservedWorld } from './observed-world.js';

export const RANDOM_LEGAL_SEED: readonly [number, number, number, number] = [0x17a4d214, 0x4d4f9063, 0x791a4235, 0xc420c1f5];

export class RandomLegalAgent implements Agent {
  private world: ObservedWorld | undefined;
  private readonly rng = new Xoshiro128ss(RANDOM_LEGAL_SEED);
  private readonly options = new Uint8Array(5);

  act(observation: Observation): ActionSet {
    const world = (this.world ??= new ObservedWorld(observation.map));
    world.update(observation);
    const { cells } = world;
    const options = this.options;
    const out: Record<string, Action> = {};
    const people = observation.people;
    for (let i = 0; i < people.length; i++) {
      const cell = cells[i]!;
      let count = 1;
      options[0] = 0;
      for (let dir = 1; dir <= 4; dir++) if (world.legalTarget(cell, dir) >= 0) options[count++] = dir;
      out[people[i]!.id] = ACTIONS[options[this.rng.uniform(count)]!]!;
    }
    return out;
  }
}
