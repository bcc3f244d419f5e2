import type { Database } from "bun:sqlite";
import {
  NOTHING_DROPPED,
  type RawReportedTask,
  REPORTED_TASK_COLUMNS,
  toReportedTask,
  TASK_COLUMNS,
  toTaskRow,
  type NewTask,
  type RawTask,
  type TaskReport,
  type TaskRow,
  type BatchCommit,
  type TasksRepository,
} from "./tasks-repository.ts";
import { writeTransaction } from "../../../platform/sqlite/connection.ts";
import type { BulkCache } from "../../../platform/sqlite/bulk-cache.ts";
import type { WalCheckpoints } from "../../../platform/sqlite/wal-checkpoints.ts";
import { writeProductsIn } from "../../catalog/storage/catalog.sqlite.ts";
import { queueStagesIn } from "../../enrichment/storage/enrichment.sqlite.ts";

/** The durable indexing queue on SQLite. A task's payload is kept until the task ends, then dropped (the catalog has it). */
export class SqliteTasksRepo implements TasksRepository {
  /** One process uses the database: leases are kept in memory (a restart frees them all). */
  private readonly leases = new Map<string, { holder: string; until: number }>();

  constructor(
    private readonly db: Database,
    /** Batches committed without waiting for the disk (wal-checkpoints.ts); without, a plain transaction. */
    private readonly checkpoints?: WalCheckpoints,
    /** The connection's cache widened while batches come (bulk-cache.ts). */
    private readonly bulkCache?: BulkCache,
  ) {}

  async insert(task: NewTask): Promise<void> {
    const report = task.report ?? NOTHING_DROPPED;
    writeTransaction(this.db, () => {
      const { lastInsertRowid } = this.db
        .query(
          `INSERT INTO tasks (id, store_id, kind, status, item_count, warnings, rejected_count, rejected, created_at, updated_at)
           VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
        )
        .run(task.id, task.storeId, task.kind, task.itemCount, report.warnings, report.rejectedCount, report.rejected, task.now, task.now);
      // CAST: stored as text when it comes as bytes (utf8-text.ts).
      this.db.query("INSERT INTO task_payloads (seq, payload) VALUES (?, CAST(? AS TEXT))").run(lastInsertRowid, task.payload);
    })();
  }

  async get(storeId: string, id: string): Promise<(TaskRow & { report: TaskReport }) | null> {
    const r = this.db
      .query(`SELECT ${REPORTED_TASK_COLUMNS} FROM tasks WHERE id = ? AND store_id = ?`)
      .get(id, storeId) as RawReportedTask | null;
    return r ? toReportedTask(r) : null;
  }

  async pendingHeads(): Promise<TaskRow[]> {
    const rows = this.db
      .query(`SELECT ${TASK_COLUMNS} FROM tasks WHERE seq IN (SELECT min(seq) FROM tasks WHERE status = 'pending' GROUP BY store_id)`)
      .all() as RawTask[];
    return rows.map(toTaskRow);
  }

  async pendingOf(storeId: string, limit: number): Promise<TaskRow[]> {
    const rows = this.db
      .query(`SELECT ${TASK_COLUMNS} FROM tasks WHERE status = 'pending' AND store_id = ? ORDER BY seq LIMIT ?`)
      .all(storeId, limit) as RawTask[];
    return rows.map(toTaskRow);
  }

  async pendingItemCount(): Promise<number> {
    const row = this.db.query("SELECT coalesce(sum(item_count - cursor), 0) AS n FROM tasks WHERE status = 'pending'").get() as {
      n: number;
    };
    return row.n;
  }

  async payload(seq: number): Promise<string> {
    return (this.db.query("SELECT payload FROM task_payloads WHERE seq = ?").get(seq) as { payload: string }).payload;
  }

  async retryLater(seq: number, attempts: number, nextRunAt: number, message: string, now: number): Promise<void> {
    this.db
      .query("UPDATE tasks SET attempts = ?, next_run_at = ?, message = ?, updated_at = ? WHERE seq = ?")
      .run(attempts, nextRunAt, message, now, seq);
  }

  async fail(seqs: readonly number[], message: string, now: number): Promise<void> {
    writeTransaction(this.db, () => {
      for (const seq of seqs) {
        this.db.query("UPDATE tasks SET status = 'error', message = ?, updated_at = ? WHERE seq = ?").run(message, now, seq);
        this.db.query("DELETE FROM task_payloads WHERE seq = ?").run(seq);
      }
    })();
  }

  async lease(storeId: string, holder: string, now: number, leaseMs: number): Promise<boolean> {
    const held = this.leases.get(storeId);
    if (held && held.holder !== holder && held.until > now) return false;
    this.leases.set(storeId, { holder, until: now + leaseMs });
    return true;
  }

  async commitBatch(batch: BatchCommit): Promise<boolean> {
    this.bulkCache?.widen();
    let applied = false;
    const commit = writeTransaction(this.db, () => {
      for (const a of batch.advances) {
        const done = a.to >= a.itemCount;
        const moved = this.db
          .query(
            `UPDATE tasks SET cursor = ?, status = ?, message = CASE WHEN ? THEN NULL ELSE message END, updated_at = ? WHERE seq = ? AND cursor = ? AND status = 'pending'`,
          )
          .run(a.to, done ? "complete" : "pending", done ? 1 : 0, batch.at, a.seq, a.from);
        // Thrown to roll back what this transaction wrote already.
        if (moved.changes === 0) throw new StaleBatch();
        if (done) this.db.query("DELETE FROM task_payloads WHERE seq = ?").run(a.seq);
      }
      writeProductsIn(this.db, batch.storeId, batch.products, batch.at);
      if (batch.products.length) queueStagesIn(this.db, batch.storeId, batch.products, batch.at);
      applied = true;
    });
    try {
      if (this.checkpoints) this.checkpoints.commitUnsynced(commit);
      else commit();
    } catch (error) {
      if (!(error instanceof StaleBatch)) throw error;
    }
    return applied;
  }
}

class StaleBatch extends Error {}
