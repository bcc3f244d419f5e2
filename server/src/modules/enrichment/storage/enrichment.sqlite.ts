import type { Database } from "bun:sqlite";
import {
  coloursById,
  type CurrentJob,
  finishedDeliveries,
  finishedRow,
  resultsById,
  stillCurrent,
  MAX_JOB_ERROR,
  PROGRESS_SQL,
  progressOf,
  type ProgressCounts,
  type EnrichmentProgress,
  type EnrichmentJob,
  type EnrichmentRepository,
  toStoredEnrichment,
  type FinishedStage,
  type RawEnrichment,
  type StoredEnrichment,
  type UnsyncedEnrichment,
  type VariationColours,
} from "./enrichment-repository.ts";
import { dropShapesIn } from "../../catalog/storage/stored-shapes.sqlite.ts";
import { enqueueDeliveriesIn } from "../../webhooks/storage/webhooks.sqlite.ts";
import { writeTransaction } from "../../../platform/sqlite/connection.ts";

/** The enrichment queue (one row per product: its next stage) and what the stages found, on SQLite. */
export class SqliteEnrichmentRepo implements EnrichmentRepository {
  constructor(private readonly db: Database) {}

  async claimDue(now: number, limit: number, leaseMs: number): Promise<EnrichmentJob[]> {
    return this.db
      .query(
        `UPDATE enrichment_jobs SET claimed_at = ?1, next_run_at = ?1 + ?3
         WHERE (store_id, product_id) IN (SELECT store_id, product_id FROM enrichment_jobs WHERE next_run_at <= ?1 ORDER BY next_run_at LIMIT ?2)
         RETURNING store_id AS storeId, product_id AS productId, product_version AS productVersion, stage, attempts`,
      )
      .all(now, limit, leaseMs) as EnrichmentJob[];
  }

  async releaseClaims(): Promise<void> {
    this.db.query("UPDATE enrichment_jobs SET next_run_at = claimed_at, claimed_at = NULL WHERE claimed_at IS NOT NULL").run();
  }

  async pendingCount(): Promise<number> {
    return (this.db.query("SELECT COUNT(*) AS n FROM enrichment_jobs").get() as { n: number }).n;
  }

  async progress(): Promise<EnrichmentProgress> {
    return progressOf(this.db.query(PROGRESS_SQL).get() as ProgressCounts);
  }

  async finishStage(f: FinishedStage): Promise<{ done: boolean; queued: number }> {
    const { job, next, now } = f;
    return writeTransaction(this.db, () => {
      const current = this.db
        .query("SELECT product_version AS v, stage FROM enrichment_jobs WHERE store_id = ? AND product_id = ?")
        .get(job.storeId, job.productId) as CurrentJob | null;
      if (!stillCurrent(current, job)) return { done: false, queued: 0 };
      this.db
        .query(
          `INSERT OR REPLACE INTO product_enrichment (store_id, product_id, product_version, stage, attributes, colours, content, updated_at)
           VALUES ($store_id, $product_id, $product_version, $stage, $attributes, $colours, $content, $updated_at)`,
        )
        .run(finishedRow(f));
      if (next) {
        this.db
          .query(
            "UPDATE enrichment_jobs SET stage = ?, attempts = 0, next_run_at = ?, error = NULL, claimed_at = NULL WHERE store_id = ? AND product_id = ?",
          )
          .run(next, now, job.storeId, job.productId);
      } else {
        this.db.query("DELETE FROM enrichment_jobs WHERE store_id = ? AND product_id = ?").run(job.storeId, job.productId);
      }
      const queued = enqueueDeliveriesIn(this.db, finishedDeliveries(f));
      if (f.dropShape) dropShapesIn(this.db, job.storeId, [job.productId]);
      return { done: true, queued };
    })();
  }

  async failStage(job: EnrichmentJob, error: string, retryAt: number | null): Promise<void> {
    const same = "store_id = ? AND product_id = ? AND product_version = ? AND stage = ?";
    if (retryAt === null) {
      this.db.query(`DELETE FROM enrichment_jobs WHERE ${same}`).run(job.storeId, job.productId, job.productVersion, job.stage);
      return;
    }
    this.db
      .query(`UPDATE enrichment_jobs SET attempts = attempts + 1, next_run_at = ?, error = ?, claimed_at = NULL WHERE ${same}`)
      .run(retryAt, error.slice(0, MAX_JOB_ERROR), job.storeId, job.productId, job.productVersion, job.stage);
  }

  async result(storeId: string, productId: string): Promise<StoredEnrichment | null> {
    const row = this.db
      .query("SELECT product_version, stage, attributes, colours, content FROM product_enrichment WHERE store_id = ? AND product_id = ?")
      .get(storeId, productId) as RawEnrichment | null;
    return row ? toStoredEnrichment(row) : null;
  }

  async colours(storeId: string, ids: readonly string[]): Promise<Map<string, VariationColours[]>> {
    const rows = this.db
      .query(
        "SELECT product_id AS id, colours FROM product_enrichment WHERE store_id = ? AND colours IS NOT NULL AND product_id IN (SELECT value FROM json_each(?))",
      )
      .all(storeId, JSON.stringify(ids)) as { id: string; colours: string }[];
    return coloursById(rows);
  }

  async resultsOf(storeId: string, ids: readonly string[]): Promise<Map<string, Pick<StoredEnrichment, "attributes" | "colours">>> {
    const rows = this.db
      .query(
        "SELECT product_id AS id, attributes, colours FROM product_enrichment WHERE store_id = ? AND product_id IN (SELECT value FROM json_each(?))",
      )
      .all(storeId, JSON.stringify(ids)) as { id: string; attributes: string; colours: string | null }[];
    return resultsById(rows);
  }

  async unsynced(limit: number): Promise<UnsyncedEnrichment[]> {
    return this.db
      .query(
        "SELECT store_id AS storeId, product_id AS productId, product_version AS productVersion, stage, updated_at AS updatedAt FROM product_enrichment WHERE search_synced = 0 ORDER BY updated_at LIMIT ?",
      )
      .all(limit) as UnsyncedEnrichment[];
  }

  async markSynced(rows: readonly UnsyncedEnrichment[]): Promise<void> {
    const mark = this.db.query(
      "UPDATE product_enrichment SET search_synced = 1 WHERE store_id = ? AND product_id = ? AND product_version = ? AND stage = ? AND updated_at = ?",
    );
    writeTransaction(this.db, () => rows.forEach((r) => mark.run(r.storeId, r.productId, r.productVersion, r.stage, r.updatedAt)))();
  }
}

/**
 * Queues the text stage for changed products and forgets deleted ones, inside the caller's transaction (an indexing
 * batch's commit). A statement per queued product: one statement for the whole list (INSERT ... SELECT) kept a copy
 * of every page it changed until it ended (SQLite's statement journal, a temporary file), and in a large store a
 * batch's thousand jobs change hundreds of pages of 16 KB, so the queue's write grew with the store (3 ms of CPU per
 * 1,000 products at 30,000 products, 25 at 300,000); one row each needs no such copy (2 and 12).
 */
export function queueStagesIn(
  db: Database,
  storeId: string,
  changed: readonly { id: string; version: number; deleted: boolean }[],
  now: number,
): void {
  const live = changed.filter((c) => !c.deleted);
  const deleted = changed.filter((c) => c.deleted).map((c) => c.id);
  if (live.length) {
    const queue = db.query(
      `INSERT INTO enrichment_jobs (store_id, product_id, product_version, stage, attempts, next_run_at, error, claimed_at)
         VALUES (?1, ?2, ?3, 'text', 0, ?4, NULL, NULL)
         ON CONFLICT DO UPDATE SET product_version = excluded.product_version, stage = 'text', attempts = 0, next_run_at = excluded.next_run_at,
           error = NULL, claimed_at = NULL`,
    );
    for (const c of live) queue.run(storeId, c.id, c.version, now);
  }
  if (deleted.length) {
    const ids = JSON.stringify(deleted);
    db.query("DELETE FROM enrichment_jobs WHERE store_id = ? AND product_id IN (SELECT value FROM json_each(?))").run(storeId, ids);
    db.query("DELETE FROM product_enrichment WHERE store_id = ? AND product_id IN (SELECT value FROM json_each(?))").run(storeId, ids);
  }
}
