/**
 * nearest-exit-greedy-v1: each person takes the first legal move (N, E, S, W)
 * that lowers the Manhattan distance (walls ignored) to the nearest exit,
 * else STAYs. "Exit" means every exit of the map, burning or not: like
 * static-shortest-path-v1, this baseline plans on the static map only, and
 * the fire enters only through legality (it never steps onto a burning cell).
 */

import { manhattanDistances } from './distance-fields.js';
import type { Grid } from '../world/grid.js';
import { StaticFieldAgent } from './static-field-agent.js';

const FIELD = (grid: Grid): Int32Array => manhattanDistances(grid, grid.exits);

export class NearestExitGreedyAgent extends StaticFieldAgent {
  constructor() {
    super(FIELD);
  }
}
