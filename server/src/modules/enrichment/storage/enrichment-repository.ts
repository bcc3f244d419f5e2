/*
 * Product enrichment's queue (one row per product: its next stage) and what the stages found: the interface both
 * durable stores implement (enrichment.sqlite.ts, enrichment.postgres.ts), held to the same
 * behaviour by server/test/repository-conformance.test.ts. Jobs are queued by the indexing batch that commits a
 * product's change (TasksRepository.commitBatch).
 */

import type { EnrichmentProgress } from "@storefront-search/contract";
import type { NewDeliveries } from "../../webhooks/storage/webhooks-repository.ts";

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

/** A finished stage search does not hold yet; the version, stage and time tell whether a later one replaced it meanwhile. */
export interface UnsyncedEnrichment {
  storeId: string;
  productId: string;
  productVersion: number;
  stage: string;
  updatedAt: number;
}

export type { EnrichmentProgress };

/**
 * The counts progressOf reads, in SQL both stores run. A product with a result and no job has finished every stage
 * it had (a job is kept until its last stage commits).
 */
export const PROGRESS_SQL = `
  SELECT
    (SELECT CAST(count(*) AS INTEGER) FROM enrichment_jobs WHERE stage = 'text') AS "textQueued",
    (SELECT CAST(count(*) AS INTEGER) FROM enrichment_jobs WHERE stage = 'image') AS "imageQueued",
    CAST(count(*) AS INTEGER) AS finished,
    CAST(count(*) FILTER (WHERE e.stage = 'image') AS INTEGER) AS "imageDone"
  FROM product_enrichment e
  WHERE NOT EXISTS (SELECT 1 FROM enrichment_jobs j WHERE j.store_id = e.store_id AND j.product_id = e.product_id)`;

export interface ProgressCounts {
  textQueued: number;
  imageQueued: number;
  finished: number;
  imageDone: number;
}

export const progressOf = (c: ProgressCounts): EnrichmentProgress => ({
  text: { done: c.imageQueued + c.finished, total: c.textQueued + c.imageQueued + c.finished },
  image: { done: c.imageDone, total: c.imageDone + c.imageQueued + c.textQueued },
});

/** A stage's result as it is committed. */
export interface FinishedStage {
  job: EnrichmentJob;
  result: Omit<StoredEnrichment, "productVersion" | "stage">;
  /** The job's next stage, or null when this was its last. */
  next: EnrichmentStage | null;
  now: number;
  /** The webhook call's body, queued with the result for each of the store's subscriptions to the topic. */
  webhookBody: string;
  /** The result changes the product's Search product (its colours): the stored shape is dropped, to be made again. */
  dropShape: boolean;
}

export interface EnrichmentRepository {
  /**
   * Claims up to `limit` due jobs, oldest first: each is due again at `now + leaseMs` unless its stage finishes or
   * fails first, so a job whose replica died is run again once its claim runs out. Jobs another replica is
   * claiming at the same moment are skipped, not waited for.
   */
  claimDue(now: number, limit: number, leaseMs: number): Promise<EnrichmentJob[]>;
  /** Makes every claimed job due at once: for the one process of an embedded database, at start-up. */
  releaseClaims(): Promise<void>;
  pendingCount(): Promise<number>;
  progress(): Promise<EnrichmentProgress>;
  /**
   * Commits a finished stage in one transaction (its result, the job's next stage or its end, its webhook
   * deliveries, the shape it makes stale), only if the job is still at this version and stage: a product changed
   * meanwhile starts again from the text stage, and a stage run twice (a claim that ran out) commits once.
   * Returns whether it committed and how many deliveries it queued.
   */
  finishStage(f: FinishedStage): Promise<{ done: boolean; queued: number }>;
  /** A stage failed: try again at `retryAt`, or give the job up (null). */
  failStage(job: EnrichmentJob, error: string, retryAt: number | null): Promise<void>;
  result(storeId: string, productId: string): Promise<StoredEnrichment | null>;
  /** The image stage's colours of those of `ids` it has analysed. */
  colours(storeId: string, ids: readonly string[]): Promise<Map<string, VariationColours[]>>;
  /** What the stages found of those of `ids` that have been enriched: attributes (value keys) and image colours. */
  resultsOf(storeId: string, ids: readonly string[]): Promise<Map<string, Pick<StoredEnrichment, "attributes" | "colours">>>;
  /** Finished stages search does not hold yet, oldest first. */
  unsynced(limit: number): Promise<UnsyncedEnrichment[]>;
  /** Marks results applied, unless a newer stage result replaced one since it was read. */
  markSynced(rows: readonly UnsyncedEnrichment[]): Promise<void>;
}

/** A product_enrichment row as both stores read it. */
export interface RawEnrichment {
  product_version: number;
  stage: EnrichmentStage;
  attributes: string;
  colours: string | null;
  content: string;
}

export const toStoredEnrichment = (row: RawEnrichment): StoredEnrichment => ({
  productVersion: row.product_version,
  stage: row.stage,
  attributes: JSON.parse(row.attributes),
  colours: row.colours ? JSON.parse(row.colours) : null,
  content: JSON.parse(row.content),
});

/** The job as the finishing transaction found it (locked): null when it is gone. */
export interface CurrentJob {
  v: number;
  stage: string;
}

/** A finished stage is kept only while its job still stands at that version and stage (no newer change, no other worker). */
export const stillCurrent = (current: CurrentJob | null | undefined, job: EnrichmentJob): boolean =>
  !!current && current.v === job.productVersion && current.stage === job.stage;

/** The product_enrichment row a finished stage writes (search_synced starts at its default, 0). */
export const finishedRow = ({ job, result, now }: FinishedStage) => ({
  store_id: job.storeId,
  product_id: job.productId,
  product_version: job.productVersion,
  stage: job.stage,
  attributes: JSON.stringify(result.attributes),
  colours: result.colours ? JSON.stringify(result.colours) : null,
  content: JSON.stringify(result.content),
  updated_at: now,
});

/** The webhook calls a finished stage queues, in its transaction. */
export const finishedDeliveries = ({ job, webhookBody, now }: FinishedStage): NewDeliveries => ({
  storeId: job.storeId,
  productId: job.productId,
  productVersion: job.productVersion,
  stage: job.stage,
  body: webhookBody,
  now,
});

/** Stored colours by product id, as colours() answers. */
export const coloursById = (rows: readonly { id: string; colours: string }[]): Map<string, VariationColours[]> =>
  new Map(rows.map((r) => [r.id, JSON.parse(r.colours) as VariationColours[]]));

/** Stored attributes and colours by product id, as resultsOf() answers. */
export const resultsById = (
  rows: readonly { id: string; attributes: string; colours: string | null }[],
): Map<string, Pick<StoredEnrichment, "attributes" | "colours">> =>
  new Map(rows.map((r) => [r.id, { attributes: JSON.parse(r.attributes), colours: r.colours ? JSON.parse(r.colours) : null }]));

export const jobKey = (j: { storeId: string; productId: string }) => `${j.storeId}\u0000${j.productId}`;

/** Longest an error message is kept on a job. */
export const MAX_JOB_ERROR = 500;
