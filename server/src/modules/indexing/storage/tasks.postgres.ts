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
import { writeProductsIn } from "../../catalog/storage/catalog.postgres.ts";
import { queueStagesIn } from "../../enrichment/storage/enrichment.postgres.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";
import { textOf } from "../../../utf8-text.ts";

/** The indexing queue on PostgreSQL, shared by every replica. */
export class PostgresTasksRepo implements TasksRepository {
  constructor(private readonly sql: Sql) {}

  async insert(task: NewTask): Promise<void> {
    const report = task.report ?? NOTHING_DROPPED;
    await this.sql.begin(async (tx) => {
      const [row] = await tx<{ seq: number }[]>`
        INSERT INTO tasks (id, store_id, kind, status, item_count, warnings, rejected_count, rejected, created_at, updated_at)
        VALUES (${task.id}, ${task.storeId}, ${task.kind}, 'pending', ${task.itemCount}, ${report.warnings}, ${report.rejectedCount}, ${report.rejected}, ${task.now}, ${task.now})
        RETURNING seq`;
      await tx`INSERT INTO task_payloads (seq, payload) VALUES (${row!.seq}, ${textOf(task.payload)})`;
    });
  }

  async get(storeId: string, id: string): Promise<(TaskRow & { report: TaskReport }) | null> {
    const [r] = await this.sql.unsafe<RawReportedTask[]>(`SELECT ${REPORTED_TASK_COLUMNS} FROM tasks WHERE id = $1 AND store_id = $2`, [
      id,
      storeId,
    ]);
    return r ? toReportedTask(r) : null;
  }

  async pendingHeads(): Promise<TaskRow[]> {
    const rows = await this.sql.unsafe<RawTask[]>(
      `SELECT ${TASK_COLUMNS} FROM tasks WHERE seq IN (SELECT min(seq) FROM tasks WHERE status = 'pending' GROUP BY store_id) ORDER BY seq`,
    );
    return rows.map(toTaskRow);
  }

  async pendingOf(storeId: string, limit: number): Promise<TaskRow[]> {
    const rows = await this.sql.unsafe<RawTask[]>(
      `SELECT ${TASK_COLUMNS} FROM tasks WHERE status = 'pending' AND store_id = $1 ORDER BY seq LIMIT $2`,
      [storeId, limit],
    );
    return rows.map(toTaskRow);
  }

  async pendingItemCount(): Promise<number> {
    const [row] = await this.sql<
      { n: number }[]
    >`SELECT coalesce(sum(item_count - cursor), 0)::bigint AS n FROM tasks WHERE status = 'pending'`;
    return row!.n;
  }

  async payload(seq: number): Promise<string> {
    const [row] = await this.sql<{ payload: string }[]>`SELECT payload FROM task_payloads WHERE seq = ${seq}`;
    return row!.payload;
  }

  async retryLater(seq: number, attempts: number, nextRunAt: number, message: string, now: number): Promise<void> {
    await this
      .sql`UPDATE tasks SET attempts = ${attempts}, next_run_at = ${nextRunAt}, message = ${message}, updated_at = ${now} WHERE seq = ${seq}`;
  }

  async fail(seqs: readonly number[], message: string, now: number): Promise<void> {
    const list = [...seqs];
    await this.sql.begin(async (tx) => {
      await tx`UPDATE tasks SET status = 'error', message = ${message}, updated_at = ${now} WHERE seq = ANY(${list}::bigint[])`;
      await tx`DELETE FROM task_payloads WHERE seq = ANY(${list}::bigint[])`;
    });
  }

  async lease(storeId: string, holder: string, now: number, leaseMs: number): Promise<boolean> {
    // One statement: of replicas asking at once, the first to write the row has it; the others see it held.
    const rows = await this.sql`
      INSERT INTO indexing_leases (store_id, holder, until) VALUES (${storeId}, ${holder}, ${now + leaseMs})
      ON CONFLICT (store_id) DO UPDATE SET holder = excluded.holder, until = excluded.until
      WHERE indexing_leases.holder = excluded.holder OR indexing_leases.until <= ${now}
      RETURNING holder`;
    return rows.length === 1;
  }

  async commitBatch(batch: BatchCommit): Promise<boolean> {
    return this.sql
      .begin(async (tx) => {
        for (const a of batch.advances) {
          const done = a.to >= a.itemCount;
          // The row lock this takes makes another replica's commit of the same slice wait, then find the cursor moved.
          const moved = await tx`
          UPDATE tasks SET cursor = ${a.to}, status = ${done ? "complete" : "pending"},
            message = CASE WHEN ${done} THEN NULL ELSE message END, updated_at = ${batch.at}
          WHERE seq = ${a.seq} AND cursor = ${a.from} AND status = 'pending'`;
          if (moved.count === 0) throw new StaleBatch();
          if (done) await tx`DELETE FROM task_payloads WHERE seq = ${a.seq}`;
        }
        await writeProductsIn(tx, batch.storeId, batch.products, batch.at);
        await queueStagesIn(tx, batch.storeId, batch.products, batch.at);
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof StaleBatch) return false;
        throw error;
      });
  }
}

/** Thrown to roll back what the batch's transaction wrote already. */
class StaleBatch extends Error {}
