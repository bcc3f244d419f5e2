import type postgres from "postgres";
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
  type EnrichmentProgress,
  type ProgressCounts,
  type EnrichmentJob,
  type EnrichmentRepository,
  toStoredEnrichment,
  type FinishedStage,
  type RawEnrichment,
  type StoredEnrichment,
  type UnsyncedEnrichment,
  type VariationColours,
} from "./enrichment-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";
import { dropShapesIn } from "../../catalog/storage/stored-shapes.postgres.ts";
import { enqueueDeliveriesIn } from "../../webhooks/storage/webhooks.postgres.ts";

const JOB_COLUMNS = 'store_id AS "storeId", product_id AS "productId", product_version AS "productVersion", stage, attempts';

/** The enrichment queue and what the stages found, on PostgreSQL, shared by every replica. */
export class PostgresEnrichmentRepo implements EnrichmentRepository {
  constructor(private readonly sql: Sql) {}

  async claimDue(now: number, limit: number, leaseMs: number): Promise<EnrichmentJob[]> {
    // Rows another replica is claiming right now are skipped, not waited for: it takes them, this one the next.
    return [
      ...(await this.sql.unsafe<EnrichmentJob[]>(
        `WITH due AS (
           SELECT store_id AS due_store, product_id AS due_product FROM enrichment_jobs WHERE next_run_at <= $1
           ORDER BY next_run_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         UPDATE enrichment_jobs SET claimed_at = $1, next_run_at = $1::bigint + $3::bigint
         FROM due WHERE store_id = due.due_store AND product_id = due.due_product
         RETURNING ${JOB_COLUMNS}`,
        [now, limit, leaseMs],
      )),
    ];
  }

  async releaseClaims(): Promise<void> {
    await this.sql`UPDATE enrichment_jobs SET next_run_at = claimed_at, claimed_at = NULL WHERE claimed_at IS NOT NULL`;
  }

  async pendingCount(): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM enrichment_jobs`;
    return row!.n;
  }

  async progress(): Promise<EnrichmentProgress> {
    const [counts] = await this.sql.unsafe<ProgressCounts[]>(PROGRESS_SQL);
    return progressOf(counts!);
  }

  async finishStage(f: FinishedStage): Promise<{ done: boolean; queued: number }> {
    const { job, next, now } = f;
    return this.sql.begin(async (tx) => {
      // Locks the job: a replica finishing the same stage at once waits, then finds it moved on.
      const [current] = await tx<CurrentJob[]>`
        SELECT product_version AS v, stage FROM enrichment_jobs WHERE store_id = ${job.storeId} AND product_id = ${job.productId} FOR UPDATE`;
      if (!stillCurrent(current, job)) return { done: false, queued: 0 };
      await tx`
        INSERT INTO product_enrichment ${tx(finishedRow(f))}
        ON CONFLICT (store_id, product_id) DO UPDATE SET product_version = excluded.product_version, stage = excluded.stage,
          attributes = excluded.attributes, colours = excluded.colours, content = excluded.content, updated_at = excluded.updated_at, search_synced = 0`;
      if (next) {
        await tx`
          UPDATE enrichment_jobs SET stage = ${next}, attempts = 0, next_run_at = ${now}, error = NULL, claimed_at = NULL
          WHERE store_id = ${job.storeId} AND product_id = ${job.productId}`;
      } else {
        await tx`DELETE FROM enrichment_jobs WHERE store_id = ${job.storeId} AND product_id = ${job.productId}`;
      }
      const queued = await enqueueDeliveriesIn(tx, finishedDeliveries(f));
      if (f.dropShape) await dropShapesIn(tx, job.storeId, [job.productId]);
      return { done: true, queued };
    });
  }

  async failStage(job: EnrichmentJob, error: string, retryAt: number | null): Promise<void> {
    if (retryAt === null) {
      await this.sql`
        DELETE FROM enrichment_jobs
        WHERE store_id = ${job.storeId} AND product_id = ${job.productId} AND product_version = ${job.productVersion} AND stage = ${job.stage}`;
      return;
    }
    await this.sql`
      UPDATE enrichment_jobs SET attempts = attempts + 1, next_run_at = ${retryAt}, error = ${error.slice(0, MAX_JOB_ERROR)}, claimed_at = NULL
      WHERE store_id = ${job.storeId} AND product_id = ${job.productId} AND product_version = ${job.productVersion} AND stage = ${job.stage}`;
  }

  async result(storeId: string, productId: string): Promise<StoredEnrichment | null> {
    const [row] = await this.sql<RawEnrichment[]>`
      SELECT product_version, stage, attributes, colours, content FROM product_enrichment WHERE store_id = ${storeId} AND product_id = ${productId}`;
    return row ? toStoredEnrichment(row) : null;
  }

  async colours(storeId: string, ids: readonly string[]): Promise<Map<string, VariationColours[]>> {
    const rows = await this.sql<{ id: string; colours: string }[]>`
      SELECT product_id AS id, colours FROM product_enrichment
      WHERE store_id = ${storeId} AND colours IS NOT NULL AND product_id = ANY(${ids as string[]}::text[])`;
    return coloursById(rows);
  }

  async resultsOf(storeId: string, ids: readonly string[]): Promise<Map<string, Pick<StoredEnrichment, "attributes" | "colours">>> {
    const rows = await this.sql<{ id: string; attributes: string; colours: string | null }[]>`
      SELECT product_id AS id, attributes, colours FROM product_enrichment WHERE store_id = ${storeId} AND product_id = ANY(${ids as string[]}::text[])`;
    return resultsById(rows);
  }

  async unsynced(limit: number): Promise<UnsyncedEnrichment[]> {
    return [
      ...(await this.sql<UnsyncedEnrichment[]>`
        SELECT store_id AS "storeId", product_id AS "productId", product_version AS "productVersion", stage, updated_at AS "updatedAt"
        FROM product_enrichment WHERE search_synced = 0 ORDER BY updated_at LIMIT ${limit}`),
    ];
  }

  async markSynced(rows: readonly UnsyncedEnrichment[]): Promise<void> {
    if (rows.length === 0) return;
    // One statement: a row is marked only if its version, stage and time are still the ones read.
    await this.sql`
      UPDATE product_enrichment e SET search_synced = 1
      FROM unnest(${rows.map((r) => r.storeId)}::text[], ${rows.map((r) => r.productId)}::text[], ${rows.map((r) => r.productVersion)}::bigint[],
                  ${rows.map((r) => r.stage)}::text[], ${rows.map((r) => r.updatedAt)}::bigint[]) AS r(store_id, product_id, product_version, stage, updated_at)
      WHERE e.store_id = r.store_id AND e.product_id = r.product_id AND e.product_version = r.product_version AND e.stage = r.stage AND e.updated_at = r.updated_at`;
  }
}

/** Queues the text stage for changed products and forgets deleted ones, inside the caller's transaction (an indexing batch's commit). */
export async function queueStagesIn(
  tx: postgres.TransactionSql,
  storeId: string,
  changed: readonly { id: string; version: number; deleted: boolean }[],
  now: number,
): Promise<void> {
  const live = changed.filter((c) => !c.deleted);
  const deleted = changed.filter((c) => c.deleted).map((c) => c.id);
  if (live.length) {
    const jobs = live.map((p) => ({
      store_id: storeId,
      product_id: p.id,
      product_version: p.version,
      stage: "text",
      attempts: 0,
      next_run_at: now,
      error: null,
      claimed_at: null,
    }));
    await tx`
      INSERT INTO enrichment_jobs ${tx(jobs)}
      ON CONFLICT (store_id, product_id) DO UPDATE SET product_version = excluded.product_version, stage = 'text', attempts = 0,
        next_run_at = excluded.next_run_at, error = NULL, claimed_at = NULL`;
  }
  if (deleted.length) {
    await tx`DELETE FROM enrichment_jobs WHERE store_id = ${storeId} AND product_id = ANY(${deleted}::text[])`;
    await tx`DELETE FROM product_enrichment WHERE store_id = ${storeId} AND product_id = ANY(${deleted}::text[])`;
  }
}
