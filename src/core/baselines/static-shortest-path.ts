/**
 * static-shortest-path-v1: a wall-only shortest-path field to the nearest
 * exit, computed once from the first observation; each person takes the
 * first legal move (N, E, S, W) onto a cell one step closer, else STAYs.
 * The fire is ignored except that a burning cell is never entered, so
 * people keep heading for an exit that the fire has taken.
 */

import { wallOnlyDistances } from './distance-fields.js';
import type { Grid } from '../world/grid.js';
import { StaticFieldAgent } from './static-field-agent.js';

const FIELD = (grid: Grid): Int32Array => wallOnlyDistances(grid);

export class StaticShortestPathAgent extends StaticFieldAgent {
  constructor() {
    super(FIELD);
  }
}
