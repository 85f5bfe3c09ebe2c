/** Two ascending lists of cells as one ascending list: the burning cells so far and those that started burning this step. */
export function mergeAscending(old: readonly number[], added: ArrayLike<number>): number[] {
  const merged = new Array<number>(old.length + added.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < old.length && j < added.length) merged[k++] = old[i]! < added[j]! ? old[i++]! : added[j++]!;
  while (i < old.length) merged[k++] = old[i++]!;
  while (j < added.length) merged[k++] = added[j++]!;
  return merged;
}
