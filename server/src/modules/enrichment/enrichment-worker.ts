import { productIn, type CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import {
  jobKey,
  type EnrichmentJob,
  type EnrichmentRepository,
  type StoredEnrichment,
  type VariationColours,
} from "./storage/enrichment-repository.ts";
import type { Logger } from "../../log.ts";
import type { Product } from "../catalog/product-schema.ts";
import type { VocabularyLocale } from "./vocabulary.ts";

/*
 * The enrichment worker: runs each queued product's next stage (text, then image), at most CONCURRENCY at a
 * time. A finished stage commits its result, the job's next stage and one webhook delivery per subscription in
 * one transaction, so a crash between them loses nothing and sends nothing twice; a job is in the database until
 * its last stage commits, so a restart resumes it. A product changed meanwhile has a new job version, and the
 * stale stage's result is dropped. Jobs are claimed for CLAIM_MS: a job whose replica died is run again after
 * that, and a stage run twice commits once (EnrichmentRepository.finishStage).
 */

/** What a stage found: attributes (value keys per attribute) and, from images, colours per colour variation. */
export interface StageResult {
  attributes: Record<string, string[]>;
  colours: VariationColours[] | null;
}

export interface EnrichmentDeps {
  repo: EnrichmentRepository;
  /** One process on its database: jobs claimed by its previous run are due at once when it starts. */
  releaseClaimsAtStart: boolean;
  catalog: CatalogRepository;
  log: Logger;
  now: () => number;
  text: (product: Product) => StageResult;
  /** Null when the product has no image to analyse; throws when the images could not be fetched or read. */
  image: (product: Product, text: StageResult) => Promise<StageResult | null>;
  /** The locales a store's content is written in (its settings). */
  localesOf: (storeId: string) => Promise<VocabularyLocale[]>;
  /** Generated content in those locales. */
  content: (product: Product, result: StageResult, locales: readonly VocabularyLocale[]) => StoredEnrichment["content"];
  /** The body of the stage's webhook call. */
  webhookBody: (d: {
    storeId: string;
    product: Product;
    productVersion: number;
    stage: string;
    result: StageResult;
    content: StoredEnrichment["content"];
    locales: readonly VocabularyLocale[];
  }) => Promise<string>;
  /** After a stage committed, with the number of webhook deliveries it queued. */
  committed: (job: EnrichmentJob, result: StageResult, queued: number) => void;
  /** Whether acknowledged indexing work is waiting (enrichment then yields to it). */
  indexingBusy?: () => boolean;
}

const CONCURRENCY = 4;
/** How long a claimed job is left to its worker: far beyond a stage's time (image fetches time out long before). */
const CLAIM_MS = 5 * 60_000;
const POLL_MS = 500;
/** Waits before retrying a failed stage (an image host down); then the stage is given up, the text stage's result stays. */
const RETRY_MS = [60_000, 10 * 60_000, 60 * 60_000];
/**
 * The longest enrichment waits for an indexing backlog at a stretch: a store that indexes without pause is
 * still enriched, a few stages every so often.
 */
const MAX_YIELD_MS = 10_000;

export class EnrichmentWorker {
  private readonly running = new Map<string, Promise<void>>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  /** Since when enrichment has been waiting for indexing; null while it is not. */
  private yieldingSince: number | null = null;
  /** A claim of due jobs is under way (ticks do not overlap). */
  private claiming = false;
  private started: Promise<void> | null = null;

  constructor(private readonly d: EnrichmentDeps) {}

  start(): void {
    this.stopped = false;
    this.started = this.d.releaseClaimsAtStart ? this.d.repo.releaseClaims() : Promise.resolve();
    this.started.then(
      () => this.schedule(0),
      (error: Error) => this.d.log.error("enrichment could not release its earlier claims", { error: error.message }),
    );
  }

  /** New jobs were queued. */
  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.started?.catch(() => {});
    await Promise.allSettled([...this.running.values()]);
  }

  queueDepth(): Promise<number> {
    return this.d.repo.pendingCount();
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tick().catch((error: Error) => this.d.log.error("enrichment could not claim jobs", { error: error.message }));
      if (!this.stopped) this.schedule(POLL_MS);
    }, ms);
  }

  private async tick(): Promise<void> {
    const free = CONCURRENCY - this.running.size;
    if (this.stopped || free <= 0 || this.claiming) return;
    // Indexing goes first: its changes are promised to search within a second, and a stage commits on the same
    // thread (a bulk indexed about 15% faster without stages beside it). The indexing worker wakes us when done.
    if (this.d.indexingBusy?.()) {
      this.yieldingSince ??= this.d.now();
      if (this.d.now() - this.yieldingSince < MAX_YIELD_MS) return;
    }
    this.yieldingSince = null;
    this.claiming = true;
    let claimed: EnrichmentJob[];
    try {
      claimed = await this.d.repo.claimDue(this.d.now(), free, CLAIM_MS);
    } finally {
      this.claiming = false;
    }
    for (const job of claimed) {
      const key = jobKey(job);
      // Still running here past its claim (a very slow stage): it goes on; the claim is simply taken again.
      if (this.running.has(key) || this.stopped) continue;
      const run = this.run(job)
        .catch((error: Error) =>
          this.d.log.error("enrichment stage failed", {
            storeId: job.storeId,
            productId: job.productId,
            stage: job.stage,
            error: error.message,
          }),
        )
        .finally(() => {
          this.running.delete(key);
          if (!this.stopped) this.schedule(0);
        });
      this.running.set(key, run);
    }
  }

  private async run(job: EnrichmentJob): Promise<void> {
    const product = await productIn(this.d.catalog, job.storeId, job.productId);
    if (!product) return this.d.repo.failStage(job, "the product is no longer in the catalog", null);
    let result: StageResult | null;
    try {
      result =
        job.stage === "text" ? this.d.text(product) : await this.d.image(product, (await this.previous(job)) ?? this.d.text(product));
    } catch (error) {
      const retryIn = RETRY_MS[job.attempts];
      this.d.log.warn("enrichment stage will be retried", {
        storeId: job.storeId,
        productId: job.productId,
        stage: job.stage,
        attempts: job.attempts + 1,
        error: (error as Error).message,
      });
      return this.d.repo.failStage(job, (error as Error).message, retryIn === undefined ? null : this.d.now() + retryIn);
    }
    if (!result) return this.d.repo.failStage(job, "nothing to analyse", null);
    const locales = await this.d.localesOf(job.storeId);
    const content = this.d.content(product, result, locales);
    const next = job.stage === "text" && product.media?.length ? "image" : null;
    const { done, queued } = await this.d.repo.finishStage({
      job,
      result: { attributes: result.attributes, colours: result.colours, content },
      next,
      now: this.d.now(),
      webhookBody: await this.d.webhookBody({
        storeId: job.storeId,
        product,
        productVersion: job.productVersion,
        stage: job.stage,
        result,
        content,
        locales,
      }),
      // Colours change the Search product: its stored shape goes, and the next page shapes it again with them.
      dropShape: result.colours !== null,
    });
    if (done) this.d.committed(job, result, queued);
  }

  /** The text stage's attributes, for the image stage to add to. */
  private async previous(job: EnrichmentJob): Promise<StageResult | null> {
    const stored = await this.d.repo.result(job.storeId, job.productId);
    return stored && stored.productVersion === job.productVersion ? { attributes: stored.attributes, colours: null } : null;
  }
}
