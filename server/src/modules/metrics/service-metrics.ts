import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/*
 * The service's Prometheus metrics, in a registry of their own per app: tests build several apps in one process,
 * and prom-client's global registry would refuse the second app's metrics of the same names (or mix their counts).
 *
 * Every label has a bounded set of values: the route label is the route table's pattern ("/:version/search"),
 * never the raw path, and the method label folds unknown methods into "other", so no client can create series.
 */

/** Seconds; search answers take milliseconds, so the buckets start at 1 ms (the search time budget is 250 ms). */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The route label of a request that matched no route (404, 405, a preflight answered before routing). */
export const UNMATCHED_ROUTE = "unmatched";

export interface MetricsSources {
  /** Indexing items acknowledged but not yet applied, read at each scrape. */
  indexingQueueDepth: () => Promise<number>;
  /**
   * Items waiting for enrichment, read at each scrape. There is no enrichment queue yet (issue 14 adds it);
   * without a provider the gauge reads 0.
   */
  enrichmentQueueDepth?: () => Promise<number>;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requestDuration: Histogram<"method" | "route" | "status">;
  private readonly searchDuration: Histogram;
  private readonly eventsIngested: Counter;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requestDuration = new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival to its response, by method, route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.searchDuration = new Histogram({
      name: "search_duration_seconds",
      help: "Time the search service took for one search (GET /{v}/search), whether it succeeded or failed",
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.eventsIngested = new Counter({
      name: "events_ingested_total",
      help: "Shopper events accepted by POST /{v}/tracking",
      registers,
    });
    new Gauge({
      name: "indexing_queue_depth",
      help: "Indexing items (products to upsert or delete) acknowledged but not yet applied",
      registers,
      async collect() {
        this.set(await sources.indexingQueueDepth());
      },
    });
    const enrichment = sources.enrichmentQueueDepth ?? (async () => 0);
    new Gauge({
      name: "enrichment_queue_depth",
      // No enrichment queue exists yet (issue 14 adds it and passes its provider); until then this reads 0.
      help: "Items waiting for enrichment (0 until the enrichment queue exists)",
      registers,
      async collect() {
        this.set(await enrichment());
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    this.requestDuration.observe(
      { method: KNOWN_METHODS.has(method) ? method : "other", route: route || UNMATCHED_ROUTE, status: String(status) },
      seconds,
    );
  }

  observeSearch(seconds: number): void {
    this.searchDuration.observe(seconds);
  }

  countEvents(accepted: number): void {
    if (accepted > 0) this.eventsIngested.inc(accepted);
  }

  /** The exposition text; the gauges read their sources now. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
