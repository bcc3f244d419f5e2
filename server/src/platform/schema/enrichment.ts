import type { Dialect } from "./dialect.ts";
import { keyedByStore, type Table } from "./table.ts";

/*
 * Product enrichment: each product's next stage (one row per product, written in the transaction that commits a
 * content change; a product whose content did not change is not queued again), and what the stages found for its
 * latest version.
 */

/**
 * claimed_at: when a worker claimed the job, while next_run_at is pushed past the claim's end, so a job whose
 * worker died is due again then (SQLite's one process releases claims at start).
 */
export const enrichmentJobs = (d: Dialect): Table =>
  keyedByStore(d, "enrichment_jobs", {
    key: [`product_id       ${d.sortedText} NOT NULL`],
    values: [
      `product_version  ${d.bigint} NOT NULL`,
      "stage            TEXT NOT NULL CHECK (stage IN ('text', 'image'))",
      `attempts         ${d.bigint} NOT NULL DEFAULT 0`,
      `next_run_at      ${d.bigint} NOT NULL`,
      "error            TEXT",
      `claimed_at       ${d.bigint}`,
    ],
  });

export const enrichmentJobsDueIndex = "CREATE INDEX enrichment_jobs_due ON enrichment_jobs(next_run_at)";

/**
 * search_synced: whether search holds the latest enrichment (its engine document's words and colour facet values).
 * A finished stage replaces the row, which sets it back to 0, and the search sync sets it once applied, so a crash
 * between the two is caught up after the restart.
 */
export const productEnrichment = (d: Dialect): Table =>
  keyedByStore(d, "product_enrichment", {
    key: [`product_id       ${d.sortedText} NOT NULL`],
    values: [
      `product_version  ${d.bigint} NOT NULL`,
      "stage            TEXT NOT NULL",
      "attributes       TEXT NOT NULL",
      "colours          TEXT",
      "content          TEXT NOT NULL",
      `updated_at       ${d.bigint} NOT NULL`,
      `search_synced    ${d.smallint} NOT NULL DEFAULT 0`,
    ],
  });

export const productEnrichmentUnsyncedIndex =
  "CREATE INDEX product_enrichment_unsynced ON product_enrichment(updated_at) WHERE search_synced = 0";
