import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CommitmentOrder, MAX_REGRET } from './commitment-order.js';

/** The reference order: regret descending, walk ascending, person ascending (a comparison sort). */
function referenceOrder(people: readonly { person: number; regret: number; walk: number }[]): number[] {
  return [...people]
    .sort((a, b) => b.regret - a.regret || a.walk - b.walk || a.person - b.person)
    .map((p) => p.person);
}

function sorted(people: readonly { person: number; regret: number; walk: number }[]): number[] {
  const order = new CommitmentOrder();
  order.reserve(people.length);
  people.forEach((p, k) => {
    order.person[k] = p.person;
    order.regret[k] = p.regret;
    order.walk[k] = p.walk;
  });
  const out = new Int32Array(people.length);
  order.sort(people.length, out);
  return [...out];
}

/** People with increasing person numbers and the given regret / walk draws. */
function peopleOf(draws: readonly [number, number, number][]): { person: number; regret: number; walk: number }[] {
  let person = 0;
  return draws.map(([gap, regret, walk]) => ({ person: (person += gap), regret, walk }));
}

describe('CommitmentOrder', () => {
  it('orders by regret descending, walk ascending, person ascending (counting sorts)', () => {
    const regret = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constant(MAX_REGRET));
    const draw = fc.tuple(fc.integer({ min: 1, max: 3 }), regret, fc.integer({ min: 0, max: 60 }));
    fc.assert(
      fc.property(fc.array(draw, { maxLength: 80 }), (draws) => {
        const people = peopleOf(draws);
        expect(sorted(people)).toEqual(referenceOrder(people));
      }),
    );
  });

  it('gives the same order when the regrets span too many buckets (packed-key sort)', () => {
    const draw = fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: MAX_REGRET }), fc.integer({ min: 0, max: 0x1ffff }));
    fc.assert(
      fc.property(fc.array(draw, { maxLength: 40 }), (draws) => {
        const people = peopleOf(draws);
        expect(sorted(people)).toEqual(referenceOrder(people));
      }),
    );
  });

  it('reuses its arrays across calls of different sizes', () => {
    const order = new CommitmentOrder();
    const big = peopleOf(Array.from({ length: 50 }, (_, k): [number, number, number] => [1, k % 7, 50 - k]));
    expect(sorted(big)).toEqual(referenceOrder(big));
    order.reserve(3);
    order.person.set([0, 1, 2]);
    order.regret.set([1, MAX_REGRET, 1]);
    order.walk.set([5, 9, 4]);
    const out = new Int32Array(3);
    order.sort(3, out);
    expect([...out]).toEqual([1, 2, 0]);
  });
});
