/*
 * The indexing queue's tasks: the interface both durable stores implement (tasks-repo.ts on SQLite,
 * postgres/tasks-repo.ts), held to the same behaviour by server/test/repository-conformance.test.ts, with the row
 * shapes and their mapping, which are the same on both. A batch's progress is committed with its products and
 * their enrichment queue (commitBatch): the one transaction that spans the catalog's and enrichment's tables, so it
 * lives here, above both, and writes them through their in-transaction helpers.
 */
import type { Utf8Text } from "../../../utf8-text.ts";
import type { CommittedProduct } from "../../catalog/storage/catalog-repository.ts";

/** A task's items [from, to) applied by a batch. */
export interface TaskAdvance {
  seq: number;
  from: number;
  to: number;
  itemCount: number;
}

export interface BatchCommit {
  storeId: string;
  at: number;
  /** Products whose content changed (an identical re-send is not here). */
  products: readonly CommittedProduct[];
  advances: readonly TaskAdvance[];
}

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

export interface RawTask {
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

export const TASK_COLUMNS = "seq, id, store_id, kind, status, item_count, cursor, attempts, next_run_at, message, created_at, updated_at";

/** What validation dropped (warnings) or refused when the task was acknowledged; `rejected` is a JSON list. */
export interface TaskReport {
  warnings: number;
  rejectedCount: number;
  rejected: string;
}

export const NOTHING_DROPPED: TaskReport = { warnings: 0, rejectedCount: 0, rejected: "[]" };

export const toTaskRow = (r: RawTask): TaskRow => ({
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

/** A task's row with its report, as get reads it from either database. */
export type RawReportedTask = RawTask & { warnings: number; rejected_count: number; rejected: string };
export const REPORTED_TASK_COLUMNS = `${TASK_COLUMNS}, warnings, rejected_count, rejected`;
export const toReportedTask = (r: RawReportedTask): TaskRow & { report: TaskReport } => ({
  ...toTaskRow(r),
  report: { warnings: r.warnings, rejectedCount: r.rejected_count, rejected: r.rejected },
});

export interface NewTask {
  id: string;
  storeId: string;
  kind: TaskKind;
  /** The items as a JSON array (the UTF-8 bytes a request body brought, or a string). */
  payload: Utf8Text;
  itemCount: number;
  now: number;
  report?: TaskReport;
}

export interface TasksRepository {
  insert(task: NewTask): Promise<void>;
  get(storeId: string, id: string): Promise<(TaskRow & { report: TaskReport }) | null>;
  /** The oldest pending task of each store with pending work. */
  pendingHeads(): Promise<TaskRow[]>;
  /** A store's oldest pending tasks, in the order they were acknowledged. */
  pendingOf(storeId: string, limit: number): Promise<TaskRow[]>;
  /** Items of pending tasks not yet applied (past each task's cursor): the indexing queue's depth. */
  pendingItemCount(): Promise<number>;
  payload(seq: number): Promise<string>;
  retryLater(seq: number, attempts: number, nextRunAt: number, message: string, now: number): Promise<void>;
  /** Ends the tasks in `error` (their payloads dropped). */
  fail(seqs: readonly number[], message: string, now: number): Promise<void>;
  /**
   * Takes or renews the right to apply a store's tasks until `now + leaseMs`: true for `holder` when the store
   * has no holder, its lease ran out, or `holder` has it already. Replicas apply different stores at once and a
   * dead replica's store is taken over once its lease ends; a batch whose lease ran out meanwhile is still
   * refused at commit time by its tasks' cursors (commitBatch), so nothing is applied twice.
   */
  lease(storeId: string, holder: string, now: number, leaseMs: number): Promise<boolean>;
  /**
   * Commits an indexing batch all or nothing: the products (their stored shapes dropped), their enrichment (the
   * text stage queued for a changed product; a deleted one's queue entry and results dropped) and the tasks'
   * progress (a task whose cursor reaches its item count is complete and its payload dropped). False, with nothing
   * written, when a task's cursor is no longer `from` or the task is no longer pending: another replica applied it
   * first, or it ended.
   */
  commitBatch(batch: BatchCommit): Promise<boolean>;
}
