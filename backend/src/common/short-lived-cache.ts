/**
 * Answers kept for a moment, for reads many clients repeat (the first page of browse, a popular
 * search): within `ttlMs` the same key is answered from memory, and concurrent misses of one key
 * share one load instead of each running it. Per process and bounded: past `maxEntries` the
 * oldest entry goes. A failed load is not kept.
 */
export class ShortLivedCache<V> {
  private readonly entries = new Map<string, { expiresAt: number; value: Promise<V> }>();
  /** Bumped by clear(): a load that started before a write must not be stored after it. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const at = this.now();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > at) return entry.value;
    if (entry) this.entries.delete(key);
    const generation = this.generation;
    const value = load();
    this.entries.set(key, { expiresAt: at + this.ttlMs, value });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    value.then(
      () => {
        if (generation !== this.generation) this.forget(key, value);
      },
      () => this.forget(key, value),
    );
    return value;
  }

  /** Forgets every answer: after a write in this process, its own next read sees the write. */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  private forget(key: string, value: Promise<V>): void {
    if (this.entries.get(key)?.value === value) this.entries.delete(key);
  }
}
