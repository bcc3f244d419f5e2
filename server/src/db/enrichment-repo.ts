import type { Database } from "bun:sqlite";

export type EnrichmentStage = "text" | "image";

export interface EnrichmentJob {
  storeId: string;
  productId: string;
  productVersion: number;
  stage: EnrichmentStage;
  attempts: number;
}

export interface VariationColours {
  variationId: string;
  values: { hex: string; ratio: number }[];
}

export interface StoredEnrichment {
  productVersion: number;
  stage: EnrichmentStage;
  attributes: Record<string, string[]>;
  /** Colour composition of each colour variation's main image (image stage). */
  colours: VariationColours[] | null;
  content: { fieldName: string; values: Record<string, string> }[];
}

/** The enrichment queue (one row per product: its next stage) and what the stages found. */
export class EnrichmentRepo {
  constructor(private readonly db: Database) {}

  /**
   * Queues the text stage for changed products and forgets deleted ones. Runs inside the catalog's transaction:
   * a statement per list rather than per product (a batch of the indexing worker holds a thousand).
   */
  queue(storeId: string, changed: readonly { id: string; version: number; deleted: boolean }[], now: number): void {
    const live = changed.filter((c) => !c.deleted);
    const deleted = changed.filter((c) => c.deleted).map((c) => c.id);
    if (live.length) {
      this.db
        .query(
          `INSERT INTO enrichment_jobs (store_id, product_id, product_version, stage, attempts, next_run_at, error)
           SELECT ?1, value ->> 0, value ->> 1, 'text', 0, ?2, NULL FROM json_each(?3) WHERE true
           ON CONFLICT DO UPDATE SET product_version = excluded.product_version, stage = 'text', attempts = 0, next_run_at = excluded.next_run_at, error = NULL`,
        )
        .run(storeId, now, JSON.stringify(live.map((c) => [c.id, c.version])));
    }
    if (deleted.length) {
      const ids = JSON.stringify(deleted);
      this.db.query("DELETE FROM enrichment_jobs WHERE store_id = ? AND product_id IN (SELECT value FROM json_each(?))").run(storeId, ids);
      this.db.query("DELETE FROM product_enrichment WHERE store_id = ? AND product_id IN (SELECT value FROM json_each(?))").run(storeId, ids);
    }
  }

  /** Jobs due at `now`, oldest first, skipping those already running. */
  due(now: number, limit: number, running: ReadonlySet<string>): EnrichmentJob[] {
    const rows = this.db
      .query(
        `SELECT store_id AS storeId, product_id AS productId, product_version AS productVersion, stage, attempts
         FROM enrichment_jobs WHERE next_run_at <= ? ORDER BY next_run_at LIMIT ?`,
      )
      .all(now, limit + running.size) as EnrichmentJob[];
    return rows.filter((j) => !running.has(jobKey(j))).slice(0, limit);
  }

  pendingCount(): number {
    return (this.db.query("SELECT COUNT(*) AS n FROM enrichment_jobs").get() as { n: number }).n;
  }

  /**
   * Records a finished stage and moves the job on (to `next`, or done), only if the job is still for this
   * version and stage (a newer version queued meanwhile starts again from the text stage). Returns whether it did.
   */
  finishStage(job: EnrichmentJob, result: Omit<StoredEnrichment, "productVersion" | "stage">, next: EnrichmentStage | null, now: number): boolean {
    const current = this.db
      .query("SELECT product_version AS v, stage FROM enrichment_jobs WHERE store_id = ? AND product_id = ?")
      .get(job.storeId, job.productId) as { v: number; stage: string } | null;
    if (!current || current.v !== job.productVersion || current.stage !== job.stage) return false;
    this.db
      .query(
        `INSERT OR REPLACE INTO product_enrichment (store_id, product_id, product_version, stage, attributes, colours, content, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(job.storeId, job.productId, job.productVersion, job.stage, JSON.stringify(result.attributes), result.colours ? JSON.stringify(result.colours) : null, JSON.stringify(result.content), now);
    if (next) {
      this.db.query("UPDATE enrichment_jobs SET stage = ?, attempts = 0, next_run_at = ?, error = NULL WHERE store_id = ? AND product_id = ?").run(next, now, job.storeId, job.productId);
    } else {
      this.db.query("DELETE FROM enrichment_jobs WHERE store_id = ? AND product_id = ?").run(job.storeId, job.productId);
    }
    return true;
  }

  /** A stage failed: try again at `retryAt`, or give the job up (null). */
  failStage(job: EnrichmentJob, error: string, retryAt: number | null): void {
    if (retryAt === null) {
      this.db.query("DELETE FROM enrichment_jobs WHERE store_id = ? AND product_id = ? AND product_version = ? AND stage = ?").run(job.storeId, job.productId, job.productVersion, job.stage);
      return;
    }
    this.db
      .query("UPDATE enrichment_jobs SET attempts = attempts + 1, next_run_at = ?, error = ? WHERE store_id = ? AND product_id = ? AND product_version = ? AND stage = ?")
      .run(retryAt, error.slice(0, 500), job.storeId, job.productId, job.productVersion, job.stage);
  }

  /** The image stage's colours alone (read for every product when the similar-products model is built). */
  colours(storeId: string, productId: string): VariationColours[] | null {
    const row = this.db.query("SELECT colours FROM product_enrichment WHERE store_id = ? AND product_id = ?").get(storeId, productId) as { colours: string | null } | null;
    return row?.colours ? JSON.parse(row.colours) : null;
  }

  result(storeId: string, productId: string): StoredEnrichment | null {
    const row = this.db
      .query("SELECT product_version, stage, attributes, colours, content FROM product_enrichment WHERE store_id = ? AND product_id = ?")
      .get(storeId, productId) as { product_version: number; stage: EnrichmentStage; attributes: string; colours: string | null; content: string } | null;
    if (!row) return null;
    return {
      productVersion: row.product_version,
      stage: row.stage,
      attributes: JSON.parse(row.attributes),
      colours: row.colours ? JSON.parse(row.colours) : null,
      content: JSON.parse(row.content),
    };
  }
}

export const jobKey = (j: { storeId: string; productId: string }) => `${j.storeId}\u0000${j.productId}`;
