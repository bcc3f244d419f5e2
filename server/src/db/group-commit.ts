/*
 * Group commit: writes that arrive while the event loop is busy are committed together in one transaction, so
 * concurrent requests share one disk sync instead of paying one each. Every caller's promise settles only after
 * the transaction holding its items committed (or failed), so acknowledging after `await add()` stays durable.
 */
export class GroupCommit<T> {
  private pending: { items: readonly T[]; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;

  constructor(private readonly commit: (items: T[]) => void) {}

  add(items: readonly T[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ items, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    try {
      this.commit(batch.flatMap((b) => b.items));
    } catch (error) {
      for (const b of batch) b.reject(error);
      return;
    }
    for (const b of batch) b.resolve();
  }
}
