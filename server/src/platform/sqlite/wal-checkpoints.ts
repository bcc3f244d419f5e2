import type { Database } from "bun:sqlite";

/*
 * The indexing worker's batches leave their checkpoints to a thread of their own. A batch's commit writes
 * megabytes: as the log passed its checkpoint size, the serving thread copied it into the database file and synced
 * that, besides its own work. The service's catalog commit also does not wait for the disk: with synchronous=FULL
 * it waited for an fsync of the log, 40-60 ms of the main thread per batch of 1,000 products, and it needs none.
 * Until the batch is on disk, what a power loss would leave has its tasks pending, and they are applied again from
 * the same catalog state with the same versions, as after a crash between the engine write (synced before) and
 * the commit. The next synced commit on the database (an acknowledged task, a finished enrichment stage) syncs the
 * log with it.
 */

/** What the checkpoint thread is sent: a file to checkpoint, or one whose connection it must close. */
export type CheckpointRequest = { type: "checkpoint"; file: string } | { type: "forget"; file: string };
export type CheckpointReply = { forgotten: string };

/** The thread that checkpoints (wal-checkpoint-thread.ts), started on first use; one serves many files. */
export class CheckpointThread {
  private worker: Worker | null = null;
  /** Callers waiting until the thread holds no connection to a file, by file. */
  private readonly forgetting = new Map<string, (() => void)[]>();

  checkpoint(file: string): void {
    this.thread().postMessage({ type: "checkpoint", file } satisfies CheckpointRequest);
  }

  /**
   * Resolves once the thread holds no connection to `file` (nor checkpoints it), so that the file can be removed:
   * a connection closed after that would checkpoint into a file no longer there and remove the log by its name.
   */
  forget(file: string): Promise<void> {
    if (!this.worker) return Promise.resolve();
    const worker = this.worker;
    return new Promise((resolve) => {
      this.forgetting.set(file, [...(this.forgetting.get(file) ?? []), resolve]);
      worker.postMessage({ type: "forget", file } satisfies CheckpointRequest);
    });
  }

  close(): void {
    this.worker?.terminate();
    this.worker = null;
    this.release();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL("./wal-checkpoint-thread.ts", import.meta.url).href);
    worker.onmessage = (event: MessageEvent<CheckpointReply>) => {
      const waiting = this.forgetting.get(event.data.forgotten);
      this.forgetting.delete(event.data.forgotten);
      for (const resolve of waiting ?? []) resolve();
    };
    // A checkpoint that failed is done by the next one, or by the connection's own automatic checkpoint. The
    // thread ended, its connections are gone: nothing is left to forget.
    worker.onerror = () => {
      worker.terminate();
      if (this.worker !== worker) return;
      this.worker = null;
      this.release();
    };
    this.worker = worker;
    return worker;
  }

  private release(): void {
    for (const waiting of this.forgetting.values()) for (const resolve of waiting) resolve();
    this.forgetting.clear();
  }
}

/** A connection's batch commits, checkpointed on a CheckpointThread instead of by the connection itself. */
export class WalCheckpoints {
  /** The connection's own settings, put back after each commit. */
  private readonly synchronous: number;
  private readonly autocheckpoint: number;
  private readonly thread: CheckpointThread;

  constructor(
    private readonly db: Database,
    /** A thread its owner shares between connections; without, one of its own, ended by close(). */
    private readonly shared?: CheckpointThread,
  ) {
    this.thread = shared ?? new CheckpointThread();
    this.synchronous = (db.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
    this.autocheckpoint = (db.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
  }

  /** Runs `commit` (a write transaction) without syncing or checkpointing, then has the log checkpointed elsewhere. */
  commitUnsynced(commit: () => void): void {
    this.commitWith("PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0", commit);
  }

  /** Runs `commit` synced as the connection is, then has the log checkpointed elsewhere. */
  commitSynced<T>(commit: () => T): T {
    return this.commitWith("PRAGMA wal_autocheckpoint = 0", commit);
  }

  close(): void {
    if (!this.shared) this.thread.close();
  }

  private commitWith<T>(settings: string, commit: () => T): T {
    this.db.exec(settings);
    let result: T;
    try {
      result = commit();
    } finally {
      this.db.exec(`PRAGMA synchronous = ${this.synchronous}; PRAGMA wal_autocheckpoint = ${this.autocheckpoint}`);
    }
    // An in-memory database has no log to checkpoint (and another connection would not see it).
    if (this.db.filename && this.db.filename !== ":memory:") this.thread.checkpoint(this.db.filename);
    return result;
  }
}
