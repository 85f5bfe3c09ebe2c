/**
 * A value derived once from a key object and kept as long as the key lives:
 * the tables, fields and views derived from a scenario's grid or frozen map
 * are built once and shared by every episode of the scenario. Keys must not
 * change after (grids and frozen maps never do), or the value goes stale.
 */
export class WeakCache<K extends object, V> {
  private readonly values = new WeakMap<K, V>();

  /** `make` derives the value of a key; it is called once per key. */
  constructor(private readonly make: (key: K) => V) {}

  get(key: K): V {
    let value = this.values.get(key);
    if (value === undefined) {
      value = this.make(key);
      this.values.set(key, value);
    }
    return value;
  }
}
