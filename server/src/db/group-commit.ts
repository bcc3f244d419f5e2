/*
 * Group commit: writes that arrive while the event loop is busy (or, with a delay, within `delayMs`) are
 * committed together in one transaction, so concurrent requests share one disk sync instead of paying one
 * each. Every caller's promise settles only after the transaction holding its items committed (or failed),
 * so acknowledging after `await add()` stays durable.
 */
export class GroupCommit<T> {
  private pending: { items: readonly T[]; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private scheduled = false;

  constructor(
    private readonly commit: (items: T[]) => void,
    private readonly delayMs = 0,
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

  /** Commits what is pending now (also used at shutdown, so a delayed batch is not left behind). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      this.commit(batch.flatMap((b) => b.items));
    } catch (error) {
      for (const b of batch) b.reject(error);
      return;
    }
    for (const b of batch) b.resolve();
  }
}
