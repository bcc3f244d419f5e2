import type { Database } from "bun:sqlite";

export type TaskKind = "upsert" | "delete";
export type TaskStatus = "pending" | "complete" | "error";

export interface TaskRow {
  seq: number;
  id: string;
  storeId: string;
  kind: TaskKind;
  status: TaskStatus;
  itemCount: number;
  cursor: number;
  attempts: number;
  nextRunAt: number;
  message: string | null;
  createdAt: number;
  updatedAt: number;
}

interface RawTask {
  seq: number;
  id: string;
  store_id: string;
  kind: TaskKind;
  status: TaskStatus;
  item_count: number;
  cursor: number;
  attempts: number;
  next_run_at: number;
  message: string | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS = "seq, id, store_id, kind, status, item_count, cursor, attempts, next_run_at, message, created_at, updated_at";

/** What validation dropped (warnings) or refused when the task was acknowledged; `rejected` is a JSON list. */
export interface TaskReport {
  warnings: number;
  rejectedCount: number;
  rejected: string;
}

const NOTHING_DROPPED: TaskReport = { warnings: 0, rejectedCount: 0, rejected: "[]" };

const toRow = (r: RawTask): TaskRow => ({
  seq: r.seq,
  id: r.id,
  storeId: r.store_id,
  kind: r.kind,
  status: r.status,
  itemCount: r.item_count,
  cursor: r.cursor,
  attempts: r.attempts,
  nextRunAt: r.next_run_at,
  message: r.message,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The durable indexing queue. A task's payload is kept until the task ends, then dropped (the catalog has it). */
export class TasksRepo {
  constructor(private readonly db: Database) {}

  insert(task: { id: string; storeId: string; kind: TaskKind; payload: string; itemCount: number; now: number; report?: TaskReport }): void {
    const report = task.report ?? NOTHING_DROPPED;
    this.db.transaction(() => {
      const { lastInsertRowid } = this.db
        .query(
          `INSERT INTO tasks (id, store_id, kind, status, item_count, warnings, rejected_count, rejected, created_at, updated_at)
           VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
        )
        .run(task.id, task.storeId, task.kind, task.itemCount, report.warnings, report.rejectedCount, report.rejected, task.now, task.now);
      this.db.query("INSERT INTO task_payloads (seq, payload) VALUES (?, ?)").run(lastInsertRowid, task.payload);
    })();
  }

  get(storeId: string, id: string): (TaskRow & { report: TaskReport }) | null {
    const r = this.db
      .query(`SELECT ${COLUMNS}, warnings, rejected_count, rejected FROM tasks WHERE id = ? AND store_id = ?`)
      .get(id, storeId) as (RawTask & { warnings: number; rejected_count: number; rejected: string }) | null;
    return r ? { ...toRow(r), report: { warnings: r.warnings, rejectedCount: r.rejected_count, rejected: r.rejected } } : null;
  }

  /** The oldest pending task of each store with pending work. */
  pendingHeads(): TaskRow[] {
    const rows = this.db
      .query(`SELECT ${COLUMNS} FROM tasks WHERE seq IN (SELECT min(seq) FROM tasks WHERE status = 'pending' GROUP BY store_id)`)
      .all() as RawTask[];
    return rows.map(toRow);
  }

  /** A store's oldest pending tasks, in the order they were acknowledged. */
  pendingOf(storeId: string, limit: number): TaskRow[] {
    const rows = this.db
      .query(`SELECT ${COLUMNS} FROM tasks WHERE status = 'pending' AND store_id = ? ORDER BY seq LIMIT ?`)
      .all(storeId, limit) as RawTask[];
    return rows.map(toRow);
  }

  /** Items of pending tasks not yet applied (past each task's cursor): the indexing queue's depth. */
  pendingItemCount(): number {
    const row = this.db.query("SELECT coalesce(sum(item_count - cursor), 0) AS n FROM tasks WHERE status = 'pending'").get() as { n: number };
    return row.n;
  }

  payload(seq: number): string {
    return (this.db.query("SELECT payload FROM task_payloads WHERE seq = ?").get(seq) as { payload: string }).payload;
  }

  /** Records progress; a task whose cursor reached its item count is complete and its payload is dropped. */
  advance(seq: number, cursor: number, itemCount: number, now: number): void {
    if (cursor >= itemCount) {
      this.db.query("UPDATE tasks SET status = 'complete', cursor = ?, message = NULL, updated_at = ? WHERE seq = ?").run(cursor, now, seq);
      this.dropPayload(seq);
    } else {
      this.db.query("UPDATE tasks SET cursor = ?, updated_at = ? WHERE seq = ?").run(cursor, now, seq);
    }
  }

  retryLater(seq: number, attempts: number, nextRunAt: number, message: string, now: number): void {
    this.db
      .query("UPDATE tasks SET attempts = ?, next_run_at = ?, message = ?, updated_at = ? WHERE seq = ?")
      .run(attempts, nextRunAt, message, now, seq);
  }

  fail(seq: number, message: string, now: number): void {
    this.db.query("UPDATE tasks SET status = 'error', message = ?, updated_at = ? WHERE seq = ?").run(message, now, seq);
    this.dropPayload(seq);
  }

  private dropPayload(seq: number): void {
    this.db.query("DELETE FROM task_payloads WHERE seq = ?").run(seq);
  }
}
