import type { Database } from "bun:sqlite";

/*
 * The indexing worker's catalog commits without waiting for the disk. A batch's commit writes megabytes: with
 * synchronous=FULL it waited for an fsync of the log and, as the log passed its checkpoint size, for the copy
 * into the database file and a second fsync, 40-60 ms of the main thread per batch of 1,000 products. It needs
 * neither. Until the batch is on disk, what a power loss would leave has its tasks pending, and they are applied
 * again from the same catalog state with the same versions, as after a crash between the engine write (synced
 * before) and the commit. The next synced commit on the database (an acknowledged task, a finished enrichment
 * stage) syncs the log with it, and the checkpoint runs on a thread of its own.
 */
export class WalCheckpoints {
  private worker: Worker | null = null;
  /** The connection's own settings, put back after each commit. */
  private readonly synchronous: number;
  private readonly autocheckpoint: number;

  constructor(private readonly db: Database) {
    this.synchronous = (db.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
    this.autocheckpoint = (db.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
  }

  /** Runs `commit` (a write transaction) without syncing or checkpointing, then has the log checkpointed elsewhere. */
  commitUnsynced(commit: () => void): void {
    this.db.exec("PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0");
    try {
      commit();
    } finally {
      this.db.exec(`PRAGMA synchronous = ${this.synchronous}; PRAGMA wal_autocheckpoint = ${this.autocheckpoint}`);
    }
    this.checkpoint();
  }

  close(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  private checkpoint(): void {
    // An in-memory database has no log to checkpoint (and another connection would not see it).
    if (!this.db.filename || this.db.filename === ":memory:") return;
    if (!this.worker) {
      const worker = new Worker(new URL("./wal-checkpoint-thread.ts", import.meta.url).href);
      // A checkpoint that failed is done by the next one, or by the connection's own automatic checkpoint.
      worker.onerror = () => {
        worker.terminate();
        if (this.worker === worker) this.worker = null;
      };
      this.worker = worker;
    }
    this.worker.postMessage(this.db.filename);
  }
}
