/*
 * Group commit: writes that arrive while the event loop is busy (or, with a delay, within `delayMs`) are
 * committed together in one transaction, so concurrent requests share one disk sync instead of paying one
 * each. Every caller's promise settles only after the transaction holding its items committed (or failed),
 * so acknowledging after `await add()` stays durable. A commit may be asynchronous (PostgreSQL): one runs at a
 * time, and what arrives meanwhile waits for it and goes in the next one, so batches grow with the load.
 */
export class GroupCommit<T> {
  private pending: { items: readonly T[]; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private scheduled = false;
  /** The commits started so far, in order: each next one starts when the one before has settled. */
  private committing: Promise<void> = Promise.resolve();

  constructor(
    private readonly commit: (items: T[]) => void | Promise<void>,
    private readonly delayMs = 0,
    /**
     * Most items per transaction, so that one holds the database's write lock only briefly (the serving thread
     * waits for it). One caller's items are never split: a transaction holds at least one caller's.
     */
    private readonly maxItems = Infinity,
  ) {}

  add(items: readonly T[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ items, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      if (this.delayMs > 0) this.timer = setTimeout(() => this.flush(), this.delayMs);
      else setImmediate(() => this.flush());
    });
  }

  /**
   * Commits what is pending, after any commit under way (also used at shutdown, so a delayed batch is not left
   * behind); resolves when it has settled.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.scheduled = false;
    this.committing = this.committing.then(() => this.commitPending());
    return this.committing;
  }

  /** Commits what is pending, in transactions of at most maxItems (each holding whole callers' items). */
  private async commitPending(): Promise<void> {
    while (this.pending.length) {
      let count = 0;
      let taken = 0;
      while (taken < this.pending.length && (taken === 0 || count + this.pending[taken]!.items.length <= this.maxItems))
        count += this.pending[taken++]!.items.length;
      const batch = this.pending.splice(0, taken);
      try {
        await this.commit(batch.flatMap((b) => b.items));
      } catch (error) {
        for (const b of batch) b.reject(error);
        continue;
      }
      for (const b of batch) b.resolve();
    }
  }
}
