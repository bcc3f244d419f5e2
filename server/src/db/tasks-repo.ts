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

  insert(task: { id: string; storeId: string; kind: TaskKind; payload: string; itemCount: number; now: number }): void {
    this.db
      .query(
        "INSERT INTO tasks (id, store_id, kind, status, payload, item_count, created_at, updated_at) VALUES (?, ?, ?, 'pending', ?, ?, ?, ?)",
      )
      .run(task.id, task.storeId, task.kind, task.payload, task.itemCount, task.now, task.now);
  }

  get(storeId: string, id: string): TaskRow | null {
    const r = this.db.query(`SELECT ${COLUMNS} FROM tasks WHERE id = ? AND store_id = ?`).get(id, storeId) as RawTask | null;
    return r ? toRow(r) : null;
  }

  /** The oldest pending tasks, in the order they were acknowledged. */
  pendingHead(limit: number): TaskRow[] {
    const rows = this.db
      .query(`SELECT ${COLUMNS} FROM tasks WHERE status = 'pending' ORDER BY seq LIMIT ?`)
      .all(limit) as RawTask[];
    return rows.map(toRow);
  }

  payload(seq: number): string {
    return (this.db.query("SELECT payload FROM tasks WHERE seq = ?").get(seq) as { payload: string }).payload;
  }

  /** Records progress; a task whose cursor reached its item count is complete and its payload is dropped. */
  advance(seq: number, cursor: number, itemCount: number, now: number): void {
    if (cursor >= itemCount) {
      this.db
        .query("UPDATE tasks SET status = 'complete', cursor = ?, payload = '', message = NULL, updated_at = ? WHERE seq = ?")
        .run(cursor, now, seq);
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
    this.db
      .query("UPDATE tasks SET status = 'error', payload = '', message = ?, updated_at = ? WHERE seq = ?")
      .run(message, now, seq);
  }
}
