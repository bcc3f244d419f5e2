import type { ServiceState } from "./service-state.ts";
import { LATEST_API_VERSION } from "../http/api-versions.ts";
import { httpPipeline } from "../http/pipeline.ts";
import type { ServicePart } from "./lifecycle.ts";
import { RetentionJob } from "../modules/retention/retention-job.ts";
import { warmUp } from "./warm-up.ts";
import type { Health } from "@storefront-search/contract";
import { ATTEMPT_TIMEOUT_MS } from "../modules/webhooks/webhook-schedule.ts";
import type { StoreRow } from "../modules/stores/storage/stores-repository.ts";
import type { SearchEngine } from "../engine/types.ts";
import { StoreGenerationGuard } from "../engine/store-generations.ts";
import { WriteEpochs } from "../engine/write-epochs.ts";
import { PinChecks } from "../modules/rules/pin-checks.ts";
import type { StorageHealth } from "../platform/storage-health.ts";
import type { AccessPolicy } from "../modules/stores/auth-plugin.ts";
import { RateLimiter } from "../http/rate-limiter.ts";
import type { Config, EmbeddingsSettings } from "../config.ts";
import type { Logger } from "../log.ts";
import { docsRoutes } from "../modules/docs/docs-routes.ts";
import { staffPageRoutes } from "../modules/staff-pages/staff-page-routes.ts";
import { indexingRoutes } from "../modules/indexing/indexing-routes.ts";
import { IndexingService } from "../modules/indexing/indexing-service.ts";
import { IndexingWorker } from "../modules/indexing/indexing-worker.ts";
import { StoreWriters } from "../modules/indexing/store-writers.ts";
import { GroupCommit } from "../platform/group-commit.ts";
import type { SearchLogEntry } from "../modules/search-log/storage/search-log-repository.ts";
import { SETTLE_MS, TypingCoalescer } from "../modules/search-log/typing-coalescer.ts";
import { RankingInputs } from "../modules/indexing/ranking-inputs.ts";
import { EnrichedSearchSync } from "../modules/indexing/enriched-search-sync.ts";
import { ShapedProducts } from "../modules/catalog/shaped-products.ts";
import { PurchaseSignals } from "../modules/analytics/purchase-signals.ts";
import { searchRoutes } from "../modules/search/search-routes.ts";
import { multiSearchRoutes } from "../modules/search/multi-search-routes.ts";
import { CatalogModels, ModelSet } from "../modules/catalog/catalog-models.ts";
import { SimilarityIndex } from "../modules/similarity/similarity-index.ts";
import { LookIndex } from "../modules/looks/look-index.ts";
import { lookRoutes } from "../modules/looks/look-routes.ts";
import { LookService } from "../modules/looks/look-service.ts";
import { similarityRoutes } from "../modules/similarity/similarity-routes.ts";
import { recommendationsRoutes } from "../modules/recommendations/recommendations-routes.ts";
import { RecommendationsService } from "../modules/recommendations/recommendations-service.ts";
import { SimilarityService } from "../modules/similarity/similarity-service.ts";
import { MeaningService } from "../modules/meaning/meaning-service.ts";
import { EmbeddingsClient } from "../modules/hybrid/embeddings-client.ts";
import { HybridSearch } from "../modules/hybrid/hybrid-search.ts";
import { hybridRoutes } from "../modules/hybrid/hybrid-routes.ts";
import type { VectorIndex } from "../engine/vectors/vector-index.ts";
import { meaningRoutes } from "../modules/meaning/meaning-routes.ts";
import { SynonymProposals } from "../modules/meaning/synonym-proposals.ts";
import { ShopperWords } from "../modules/search/shopper-words.ts";
import { PopularContentService } from "../modules/suggestions/popular-content.ts";
import { SearchService } from "../modules/search/search-service.ts";
import { rulesRoutes } from "../modules/rules/rules-routes.ts";
import { experimentsRoutes } from "../modules/experiments/experiments-routes.ts";
import { ExperimentsService } from "../modules/experiments/experiments-service.ts";
import { RunningExperiments, type ExperimentRequest } from "../modules/experiments/running-experiments.ts";
import { rulePreviewRoutes } from "../modules/search/rule-preview-routes.ts";
import { RulesService } from "../modules/rules/rules-service.ts";
import { synonymRoutes } from "../modules/synonyms/synonym-routes.ts";
import { SynonymService } from "../modules/synonyms/synonym-service.ts";
import { QueryVocabularies } from "../modules/search/query-vocabulary.ts";
import { settingsRoutes } from "../modules/settings/settings-routes.ts";
import { SettingsService } from "../modules/settings/settings-service.ts";
import { MIN_SUGGESTION_SHOPPERS } from "../modules/search-log/suggestable-query.ts";
import { suggestionsRoutes } from "../modules/suggestions/suggestions-routes.ts";
import { SuggestionsService } from "../modules/suggestions/suggestions-service.ts";
import { widgetRoutes } from "../modules/widget/widget-routes.ts";
import { trackingRoutes } from "../modules/tracking/tracking-routes.ts";
import { EventsThread } from "../modules/tracking/events-thread.ts";
import { ProductFacts } from "../modules/ranking/product-facts.ts";
import { ResultReranker } from "../modules/ranking/result-reranker.ts";
import { ShopperTaste } from "../modules/ranking/shopper-taste.ts";
import { EvidenceCache } from "../modules/ranking/evidence-cache.ts";
import { reportsRoutes } from "../modules/reports/reports-routes.ts";
import { usersRoutes } from "../modules/analytics/users-routes.ts";
import { ReportsService } from "../modules/reports/reports-service.ts";
import { metricsRoutes } from "../modules/metrics/metrics-routes.ts";
import { ServiceMetrics } from "../modules/metrics/service-metrics.ts";
import { createEnrichment } from "../modules/enrichment/enrichment-setup.ts";
import { EnrichmentProgressReader } from "../modules/enrichment/enrichment-progress.ts";
import { WebhookDispatcher } from "../modules/webhooks/webhook-dispatcher.ts";
import { webhooksRoutes } from "../modules/webhooks/webhooks-routes.ts";
import { WebhooksService } from "../modules/webhooks/webhooks-service.ts";

export interface AppDeps {
  /** The service's durable state (composition/service-state.ts): SQLite or PostgreSQL. */
  state: ServiceState;
  /** How long a store's indexing stays this replica's after its last batch (INDEXING_LEASE_SECONDS). */
  indexingLeaseMs?: number;
  /** How long a shopper's typed search waits to be continued before it is logged (SEARCH_LOG_SETTLE_MS; 0: never). */
  searchLogSettleMs?: number;
  /** Time a search may spend before it skips optional work (SEARCH_BUDGET_MS). */
  searchBudgetMs?: number;
  widgetScriptFile: string;
  /** The InstantSearch client's built ES module (instantsearch-client/dist). */
  instantsearchClientFile: string;
  /** The built staff pages (staff-pages/dist). */
  staffPagesDir: string;
  engine: SearchEngine;
  log: Logger;
  maxBodyBytes: number;
  storage: StorageHealth;
  rateLimits: Config["rateLimits"];
  /** What the events thread opens its own connection to the state with, and logs at. */
  dbSynchronous: Config["dbSynchronous"];
  logLevel: Config["logLevel"];
  trustProxy: boolean;
  /** The origin whose pages may use admin keys (PUBLIC_URL), or null. */
  adminOrigin: string | null;
  /** METRICS_TOKEN: GET /metrics is served only when set. */
  metricsToken?: string | null;
  /** Outgoing webhook calls (WEBHOOK_* settings); default: public https receivers only, the spec's waits. */
  webhooks?: Config["webhooks"];
  /** Product images may be fetched from private addresses (ENRICHMENT_ALLOW_PRIVATE_NETWORKS). */
  enrichmentAllowPrivateNetworks?: boolean;
  /** Raw events and search logs older than this many days are deleted (RETENTION_DAYS). */
  retentionDays: number;
  /** Hybrid search: the embeddings endpoint (EMBEDDINGS_*) and where products' vectors live; absent: off. */
  hybrid?: { embeddings: EmbeddingsSettings; vectors: VectorIndex };
  now?: () => number;
}

/** How long a webhook call claimed by a replica is left to it: far beyond one attempt's time-out. */
const WEBHOOK_CLAIM_LEASE_MS = 4 * ATTEMPT_TIMEOUT_MS;

export function buildApp(deps: AppDeps) {
  const now = deps.now ?? Date.now;
  const state = deps.state;
  const { stores, tasks, catalog, changeFeed } = state;
  const engine = new WriteEpochs(new StoreGenerationGuard(deps.engine, (storeId) => stores.createdAt(storeId)));
  const purchaseSignals = new PurchaseSignals(state.purchaseCounts, engine, deps.log);
  const vocabularies = new QueryVocabularies(engine, now);
  // What each store's words mean, learned from its catalog and its shoppers (recovers searches that find nothing).
  const meaning = new MeaningService({ source: state.source, now, log: deps.log });
  // Products' vectors for hybrid search, made by the configured endpoint (modules/hybrid); every store's are checked at start.
  const hybrid = deps.hybrid
    ? new HybridSearch({
        client: new EmbeddingsClient(deps.hybrid.embeddings),
        vectors: deps.hybrid.vectors,
        catalog,
        minSimilarity: deps.hybrid.embeddings.minSimilarity,
        log: deps.log,
        now,
      })
    : null;
  // Product pages' models (similar products, looks) share one read of each store's catalog.
  /** Whether acknowledged indexing work is waiting here: background work (enrichment, model builds) yields to it. */
  const indexingBusy = () => worker.busy();
  const productPageModels = new CatalogModels(
    catalog,
    now,
    () => new ModelSet({ similar: new SimilarityIndex(), looks: new LookIndex() }),
    "similar products and looks",
    (storeId, ids) => enrichment.mainColoursOf(storeId, ids),
  );
  const writers = new StoreWriters(tasks, now, deps.indexingLeaseMs);
  const enrichedSearch = new EnrichedSearchSync({
    repo: state.enrichment,
    catalog,
    ranking: new RankingInputs(stores, state.purchaseCounts, state.enrichment),
    engine,
    writers,
    log: deps.log,
  });
  const pageModels = (store: StoreRow) => productPageModels.of(store.id, store.createdAt).then((set) => set.models);
  const enrichment = createEnrichment({
    repo: state.enrichment,
    singleProcess: state.singleProcess,
    trendInputs: state.trendInputs,
    catalog,
    stores,
    log: deps.log,
    now,
    allowPrivateNetworks: deps.enrichmentAllowPrivateNetworks ?? false,
    stageCommitted: () => enrichedSearch.wake(),
    delivered: () => webhookDispatcher.wake(),
    imageAnalysed: (storeId, productId) => productPageModels.productChanged(storeId, productId),
    indexingBusy,
  });
  const shapes = new ShapedProducts(catalog, enrichment.coloursOf);
  const pinChecks = new PinChecks(engine);
  const worker = new IndexingWorker({
    state: state.source,
    writers,
    tasks,
    catalog,
    engine,
    now,
    log: deps.log,
    storage: deps.storage,
    onApplied: (storeId) => {
      enrichment.worker.wake();
      catalogChanged(storeId);
      void changeFeed.publish("catalog", storeId).catch(() => {});
    },
  });
  /** What is learned from a store's catalog goes stale: after a batch applied here, or told of another replica's. */
  const catalogChanged = (storeId: string) => {
    vocabularies.changed(storeId);
    meaning.changed(storeId);
    hybrid?.changed(storeId);
    productPageModels.changed(storeId);
    productFacts.changed(storeId);
    events.catalogChanged(storeId);
    pinChecks.catalogChanged(storeId);
  };
  changeFeed.subscribe("catalog", (storeId) => {
    if (storeId !== null) return catalogChanged(storeId);
    // Notices may have been lost: every store's.
    stores.list().then(
      (all) => all.forEach((store) => catalogChanged(store.id)),
      () => {},
    );
  });
  const indexing = new IndexingService(
    tasks,
    catalog,
    now,
    () => worker.wake(),
    (body, taskId) => worker.thread.accept(body, taskId),
  );
  const productFacts = new ProductFacts(catalog);
  // Search reads ranking evidence through this cache; the events thread's learner says what it wrote, and
  // replicas tell each other through the change feed.
  const behaviour = state.behaviour;
  const evidence = new EvidenceCache(behaviour, changeFeed);
  const events = new EventsThread({
    source: state.source,
    synchronous: deps.dbSynchronous,
    logLevel: deps.logLevel,
    onPurchases: (storeId, ids) => purchaseSignals.changed(storeId, ids),
    evidence,
  });
  const reports = new ReportsService(state.reports, () => events.catchUp());
  const searchLogRepo = state.searchLog;
  // Search logs are not acknowledged to anyone: searches share one commit every 250 ms instead of one each.
  const batchedLog = new GroupCommit<SearchLogEntry>((entries) => searchLogRepo.append(entries, MIN_SUGGESTION_SHOPPERS), 250);
  const settleMs = deps.searchLogSettleMs ?? SETTLE_MS;
  const searchLog =
    settleMs > 0
      ? new TypingCoalescer(batchedLog, now, settleMs, (error) => deps.log.error("search log write failed", { error: error.message }))
      : batchedLog;
  const tastes = new ShopperTaste(evidence, productFacts, now);
  const reranker = new ResultReranker(evidence, tastes, productFacts, now);
  const synonyms = new SynonymService(state.synonyms, now, changeFeed);
  const rules = new RulesService(state.rules, now, changeFeed);
  const settings = new SettingsService(stores, catalog, engine);
  const runningExperiments = new RunningExperiments(state.experiments, changeFeed);
  const experiments = new ExperimentsService(state.experiments, () => events.catchUp(), settings, now, runningExperiments, {
    rules: state.rules,
    synonyms: state.synonyms,
  });
  // The answers beside search take the shopper's variant through this lookup (settings/shopper-variant.ts).
  const variants = (store: StoreRow, request: ExperimentRequest) => runningExperiments.forAnswer(store, request);
  const shopperWords = new ShopperWords(searchLogRepo, now);
  const popularContent = new PopularContentService(engine, searchLogRepo, now);
  const search = new SearchService({
    engine,
    catalog,
    searchLog,
    ...(deps.searchBudgetMs ? { budgetMs: deps.searchBudgetMs } : {}),
    now,
    log: deps.log,
    vocabularies,
    shapes,
    reranker,
    synonyms,
    rules,
    pinChecks,
    shopperWords,
    meaning,
    experiments: runningExperiments,
    ...(hybrid ? { hybrid } : {}),
  });
  const enrichmentProgress = new EnrichmentProgressReader(() => state.enrichment.progress(), now);
  const metrics = new ServiceMetrics({
    indexingQueueDepth: () => tasks.pendingItemCount(),
    enrichmentQueueDepth: () => enrichment.worker.queueDepth(),
  });
  const webhookSettings = deps.webhooks ?? { caFile: null, allowPrivateNetworks: false, retryTimeScale: 1 };
  // Sends the webhook outbox; enrichment queues deliveries in the transaction of a finished stage
  // (EnrichmentRepository.finishStage), then calls webhookDispatcher.wake(). start() and stop() are composition/start-service.ts's.
  const webhookRepo = state.webhooks;
  // One process on the embedded database: what is in flight when it starts was left by its previous run. Replicas
  // leave another's calls in flight until that one's claim is over.
  const webhookDispatcher = new WebhookDispatcher({
    repo: webhookRepo,
    leaseMs: state.singleProcess ? null : WEBHOOK_CLAIM_LEASE_MS,
    log: deps.log,
    ...webhookSettings,
    apiVersion: LATEST_API_VERSION,
    now,
  });
  const webhooks = new WebhooksService(webhookRepo, {
    now,
    allowPrivateNetworks: webhookSettings.allowPrivateNetworks,
    wake: () => webhookDispatcher.wake(),
    log: deps.log,
  });
  const access: AccessPolicy = {
    limits: {
      browser: new RateLimiter(deps.rateLimits.browser, now),
      admin: new RateLimiter(deps.rateLimits.admin, now),
      events: new RateLimiter(deps.rateLimits.events, now),
      adminEvents: new RateLimiter(deps.rateLimits.adminEvents, now),
    },
    trustProxy: deps.trustProxy,
    adminOrigin: deps.adminOrigin,
  };
  const common = { stores, now, access, maxBodyBytes: deps.maxBodyBytes };
  const looks = new LookService({
    catalog,
    engine,
    index: async (store) => (await pageModels(store)).looks,
    looks: state.looks,
    now,
    variants,
    taste: async (storeId, shopper) => {
      const taste = await tastes.of(storeId, shopper);
      return taste ? (facts) => taste.of(facts) : null;
    },
  });

  const app = httpPipeline({
    storage: deps.storage,
    log: deps.log,
    metrics,
    routes: (): readonly { method: string; path: string }[] => app.routes,
  })
    .get(
      "/health",
      async ({ set }): Promise<Health> => {
        // Liveness comes first: a database that cannot be read leaves the progress out, not the answer.
        const enrichment = await enrichmentProgress.current().catch(() => undefined);
        const reason = deps.storage.reason;
        if (!reason) return { status: "ok", enrichment };
        set.status = 503;
        return { status: "unavailable", reason, enrichment };
      },
      {
        detail: {
          summary:
            "Liveness, whether the storage can take writes (503 with the reason when not), and product enrichment's progress per stage ({ done, total })",
          tags: ["Service"],
        },
      },
    )
    .use(docsRoutes())
    .use(staffPageRoutes(deps.staffPagesDir))
    .use(metricsRoutes({ token: deps.metricsToken ?? null, metrics }))
    .use(indexingRoutes({ ...common, indexing }))
    .use(trackingRoutes({ ...common, events, eventLog: state.events, metrics }))
    .use(reportsRoutes({ ...common, reports }))
    .use(webhooksRoutes({ ...common, webhooks }))
    .use(
      usersRoutes({
        ...common,
        erasure: state.erasure,
        erased: (storeId) => evidence.erased(storeId),
        // The searches still held or in the log's 250 ms batch are written first, so that the erasure takes them too.
        catchUp: async () => {
          await searchLog.flush();
          await events.catchUp();
        },
      }),
    )
    .use(settingsRoutes({ ...common, settings }))
    .use(searchRoutes({ ...common, search, metrics }))
    .use(multiSearchRoutes({ ...common, search, metrics }))
    .use(rulesRoutes({ ...common, rules }))
    .use(experimentsRoutes({ ...common, experiments }))
    .use(rulePreviewRoutes({ ...common, search }))
    .use(synonymRoutes({ ...common, synonyms }))
    .use(
      meaningRoutes({
        ...common,
        meaning,
        proposals: new SynonymProposals({
          meaning,
          reports: state.reports,
          searchLog: searchLogRepo,
          synonyms,
          vocabularies,
          count: (storeId, text) => search.count(storeId, text),
          now,
        }),
      }),
    )
    .use(hybridRoutes({ ...common, hybrid }))
    .use(
      similarityRoutes({
        ...common,
        similarity: new SimilarityService({
          catalog,
          engine,
          index: async (store) => (await pageModels(store)).similar,
          variants,
          likings: (storeId, shopper, ids) => tastes.likings(storeId, shopper, ids),
        }),
      }),
    )
    .use(lookRoutes({ ...common, looks }))
    .use(
      recommendationsRoutes({
        ...common,
        recommendations: new RecommendationsService({ catalog, engine, repo: state.recommendations, taste: behaviour, looks, now }),
      }),
    )
    .use(
      suggestionsRoutes({
        ...common,
        suggestions: new SuggestionsService(
          engine,
          (storeId, text) => search.count(storeId, text),
          searchLogRepo,
          now,
          (storeId) => meaning.changed(storeId, true),
        ),
        redirectFor: (store, query, withheld) => rules.redirectFor(store, query, withheld),
        variants,
      }),
    )
    .use(
      widgetRoutes({
        ...common,
        widgetScriptFile: deps.widgetScriptFile,
        instantsearchClientFile: deps.instantsearchClientFile,
        popular: (storeId) => popularContent.of(storeId),
        variants,
      }),
    );

  const retention = new RetentionJob({
    stores,
    events: state.events,
    searchLog: searchLogRepo,
    retentionDays: deps.retentionDays,
    now,
    log: deps.log,
  });
  // Started in this order once the app listens, stopped in the reverse one (composition/lifecycle.ts): each after what it uses.
  const parts: ServicePart[] = [
    { name: "purchase counts", start: () => purchaseSignals.syncAll(), stop: () => purchaseSignals.drain() },
    { name: "search log", stop: () => searchLog.flush() },
    // Counts first what was acknowledged before a stop or crash but not counted yet.
    { name: "events thread", start: () => events.start(), stop: () => events.stop() },
    { name: "retention", start: () => retention.start(), stop: () => retention.stop() },
    { name: "indexing", start: () => worker.start(), stop: () => worker.stop() },
    // Settles webhook calls a stopped or killed process left in flight, then sends what is due.
    { name: "webhooks", start: () => webhookDispatcher.start(), stop: () => webhookDispatcher.stop() },
    warmUp({
      engine,
      stores,
      catalog,
      pageModels: productPageModels,
      indexingBusy,
      enrichment: [enrichment.worker, enrichedSearch],
      learners: hybrid ? [meaning, hybrid] : [meaning],
      log: deps.log,
    }),
    { name: "hybrid search", stop: () => hybrid?.stop() },
    { name: "learned meaning", stop: () => meaning.stop() },
  ];

  return { app, parts, stores };
}

export type App = ReturnType<typeof buildApp>["app"];
