/**
 * The family kinds the generator makes: the ten primary families of the
 * public suite (docs/public-suite.md), each a parametric layout. A layout
 * is drawn from the generator stream for given dimensions; the generator
 * (generate.ts) then places the people and builds the scenario.
 */

import type { Xoshiro128ss } from '../world/rng.js';
import type { Layout, LayoutInput } from './layout.js';
import { centralIgnition, fastSpread, largeHall, routeInvalidation, singleExitDense, singleExitSparse, unevenExits } from './layouts-open.js';
import { deadEndRooms, multiRoomOffice, narrowCorridor } from './layouts-walls.js';

export const FAMILY_KINDS = [
  'single_exit_low_density',
  'single_exit_high_density',
  'narrow_corridor_bottleneck',
  'uneven_exit_choice',
  'central_ignition',
  'route_invalidation',
  'fast_spread',
  'multi_room_office',
  'dead_end_rooms',
  'large_hall_crowd',
] as const;

export type FamilyKind = (typeof FAMILY_KINDS)[number];

/** The smallest grid each layout can be drawn in (rows and columns, walls included). */
export const MIN_SIZE: Readonly<Record<FamilyKind, { readonly rows: number; readonly cols: number }>> = {
  single_exit_low_density: { rows: 6, cols: 6 },
  single_exit_high_density: { rows: 6, cols: 6 },
  narrow_corridor_bottleneck: { rows: 7, cols: 16 },
  uneven_exit_choice: { rows: 8, cols: 12 },
  central_ignition: { rows: 9, cols: 9 },
  route_invalidation: { rows: 8, cols: 12 },
  fast_spread: { rows: 8, cols: 8 },
  multi_room_office: { rows: 11, cols: 14 },
  dead_end_rooms: { rows: 9, cols: 14 },
  large_hall_crowd: { rows: 16, cols: 16 },
};

export function drawLayout(kind: FamilyKind, rng: Xoshiro128ss, input: LayoutInput): Layout {
  switch (kind) {
    case 'single_exit_low_density':
      return singleExitSparse(rng, input);
    case 'single_exit_high_density':
      return singleExitDense(rng, input);
    case 'narrow_corridor_bottleneck':
      return narrowCorridor(rng, input);
    case 'uneven_exit_choice':
      return unevenExits(rng, input);
    case 'central_ignition':
      return centralIgnition(rng, input);
    case 'route_invalidation':
      return routeInvalidation(rng, input);
    case 'fast_spread':
      return fastSpread(rng, input);
    case 'multi_room_office':
      return multiRoomOffice(rng, input);
    case 'dead_end_rooms':
      return deadEndRooms(rng, input);
    case 'large_hall_crowd':
      return largeHall(rng, input);
  }
}
