/** What a budgeted cache counts: an estimate of each value's memory, and the most all values may cost. */
export interface LruWeightBudget<V> {
  /** The most the values kept may weigh together (bytes, for a budget of memory). */
  maxWeight: number;
  /** A value's weight, read when it is set (set it again after it grows). */
  weigh: (value: V) => number;
}

/**
 * A bounded least-recently-used map (Map keeps insertion order; a hit moves the key to the end),
 * bounded by its entry count and, when given a budget, by the weight of what it holds.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, { value: V; weight: number }>();
  readonly #capacity: number;
  readonly #budget: LruWeightBudget<V> | undefined;
  #weight = 0;

  constructor(capacity: number, budget?: LruWeightBudget<V>) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    if (budget && !(budget.maxWeight > 0)) throw new RangeError('budget.maxWeight must be a positive number');
    this.#capacity = capacity;
    this.#budget = budget;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry?.value;
  }

  /** Keeps the value as the most recently used, evicting the least recently used beyond the bounds; a value heavier than the whole budget is not kept. */
  set(key: K, value: V): void {
    this.#remove(key);
    const weight = this.#budget ? this.#budget.weigh(value) : 0;
    if (this.#budget && weight > this.#budget.maxWeight) return;
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    const maxWeight = this.#budget?.maxWeight ?? Infinity;
    while (this.#entries.size > this.#capacity || this.#weight > maxWeight) this.#remove(this.#entries.keys().next().value as K);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The weight of the values held (0 without a budget). */
  get weight(): number {
    return this.#weight;
  }

  #remove(key: K): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
  }
}
