import type { TasksRepository } from "./storage/tasks-repository.ts";

/*
 * Who may write a store's products into search, and when. Two parts of the service write a product's engine
 * document: the indexing worker (a batch writes the engine, then commits the catalog) and the enrichment sync
 * (it reads the catalog, then writes the engine with a stage's words). The engine's version guard orders their
 * upserts, but a deletion leaves nothing to compare with: a sync that read a product just before the worker
 * removed it would write it back, and search would find a deleted product until its next change. So each write
 * runs alone for its store in this process, and only on the replica that holds the store's indexing lease
 * (TasksRepository.lease): the worker's batches and the sync's writes of one store never overlap anywhere.
 */

/** Far longer than a batch takes (well under a second); a dead replica's stores wait this long for another. */
const DEFAULT_LEASE_MS = 30_000;

export class StoreWriters {
  /** This process, as the holder of stores' leases. */
  private readonly holder = crypto.randomUUID();
  /** The last write queued for each store: the next one starts when it ends. */
  private readonly tails = new Map<string, Promise<void>>();

  constructor(
    private readonly tasks: Pick<TasksRepository, "lease">,
    private readonly now: () => number,
    private readonly leaseMs = DEFAULT_LEASE_MS,
  ) {}

  /**
   * Runs `write` once no other write of the store runs in this process, with the store's lease taken or renewed
   * for this process. Another replica holding the lease: `write` does not run, and the answer is null.
   */
  async exclusive<T>(storeId: string, write: () => Promise<T>): Promise<T | null> {
    const before = this.tails.get(storeId);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    this.tails.set(storeId, mine);
    try {
      await before;
      if (!(await this.tasks.lease(storeId, this.holder, this.now(), this.leaseMs))) return null;
      return await write();
    } finally {
      done();
      if (this.tails.get(storeId) === mine) this.tails.delete(storeId);
    }
  }
}
