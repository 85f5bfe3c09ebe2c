/**
 * The order in which DoorAssignment takes people: by decreasing regret, then
 * increasing walk to the nearest exit, then person order. Two stable counting
 * sorts (by walk, then by regret) replace a comparison sort of packed keys:
 * walks are grid distances and regrets are small differences of costs, so
 * both ranges are short. Should the regrets span far more buckets than there
 * are people (a map with extreme route dangers), the packed-key sort is used
 * instead; both give the same order.
 */

/** Regrets are capped here (a person with one reachable door has this regret). */
export const MAX_REGRET = 0xffff;
/** Sort-key field widths: distances are below 2^17 (cells), person indices below 2^20. */
const CELL_SPAN = 0x20000;
const PERSON_SPAN = 0x100000;

export class CommitmentOrder {
  /** The people to order (indices ascending), their regret (0..MAX_REGRET) and walk. */
  person = new Int32Array(16);
  regret = new Int32Array(16);
  walk = new Int32Array(16);
  private byWalk = new Int32Array(16);
  private counts = new Int32Array(16);
  private keys = new Float64Array(16);

  /** Makes room for n people (the arrays above are replaced, not kept). */
  reserve(n: number): void {
    if (this.person.length >= n) return;
    const length = Math.max(n, this.person.length * 2);
    this.person = new Int32Array(length);
    this.regret = new Int32Array(length);
    this.walk = new Int32Array(length);
    this.byWalk = new Int32Array(length);
    this.keys = new Float64Array(length);
  }

  /**
   * Writes the m people given in `person`/`regret`/`walk` (persons in
   * increasing order) into `order`: regret descending, walk ascending,
   * person ascending.
   */
  sort(m: number, order: Int32Array): void {
    const { person, regret, walk, byWalk } = this;
    let maxWalk = 0;
    let maxRegret = -1; // the largest regret below MAX_REGRET
    for (let k = 0; k < m; k++) {
      if (walk[k]! > maxWalk) maxWalk = walk[k]!;
      const r = regret[k]!;
      if (r !== MAX_REGRET && r > maxRegret) maxRegret = r;
    }
    // Regret buckets: 0 for MAX_REGRET, then 1 + (maxRegret - r), so larger regrets come first.
    const regretBuckets = maxRegret + 2;
    if (regretBuckets > 4 * m + 1024 || maxWalk >= CELL_SPAN) {
      this.sortPacked(m, order);
      return;
    }
    // Pass 1: by walk (stable, people already in person order), into byWalk as positions k.
    let counts = this.grow(maxWalk + 2);
    counts.fill(0, 0, maxWalk + 2);
    for (let k = 0; k < m; k++) counts[walk[k]! + 1]!++;
    for (let b = 1; b <= maxWalk + 1; b++) counts[b]! += counts[b - 1]!;
    for (let k = 0; k < m; k++) byWalk[counts[walk[k]!]!++] = k;
    // Pass 2: by regret bucket (stable), into order as person indices.
    counts = this.grow(regretBuckets + 1);
    counts.fill(0, 0, regretBuckets + 1);
    for (let k = 0; k < m; k++) counts[bucketOf(regret[k]!, maxRegret) + 1]!++;
    for (let b = 1; b <= regretBuckets; b++) counts[b]! += counts[b - 1]!;
    for (let j = 0; j < m; j++) {
      const k = byWalk[j]!;
      order[counts[bucketOf(regret[k]!, maxRegret)]!++] = person[k]!;
    }
  }

  /** The same order by a sort of packed keys (exact in a double: each field fits its span). */
  private sortPacked(m: number, order: Int32Array): void {
    const { person, regret, walk, keys } = this;
    for (let k = 0; k < m; k++) keys[k] = ((MAX_REGRET - regret[k]!) * CELL_SPAN + walk[k]!) * PERSON_SPAN + person[k]!;
    const sorted = keys.subarray(0, m).sort();
    for (let k = 0; k < m; k++) order[k] = sorted[k]! % PERSON_SPAN;
  }

  private grow(length: number): Int32Array {
    if (this.counts.length < length) this.counts = new Int32Array(Math.max(length, this.counts.length * 2));
    return this.counts;
  }
}

function bucketOf(regret: number, maxRegret: number): number {
  return regret === MAX_REGRET ? 0 : 1 + maxRegret - regret;
}
