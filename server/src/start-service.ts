import type { Elysia } from "elysia";
import { buildApp } from "./app.ts";
import { StoreAdmin } from "./auth/store-admin.ts";
import type { Config } from "./config.ts";
import { SERVER_BUSY_TIMEOUT_MS } from "./db/connection.ts";
import { openServiceState } from "./db/service-state.ts";
import { StorageHealth } from "./db/storage-health.ts";
import { TLS_CIPHERS, TLS_SECURE_OPTIONS } from "./http/tls-policy.ts";
import { createEngine, createVectorIndex } from "./engine/create-engine.ts";
import { RetentionJob } from "./modules/retention/retention-job.ts";
import { createLogger, type Logger } from "./log.ts";

/** After the stores' search indexes are loaded, how long product pages' models wait before they are built. */
const PAGE_MODELS_PRELOAD_DELAY_MS = 5_000;

export interface RunningService {
  url: string;
  log: Logger;
  storeAdmin: StoreAdmin;
  /** What the search engine holds for a store: for operations checks and tests. */
  engineCount(storeId: string): Promise<number>;
  engineVersions(storeId: string, ids: string[]): Promise<Map<string, number>>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Extra routes served on the same port (the demo store). */
  extend?: (app: Elysia) => Elysia;
  /** Where log lines go instead of stdout (the demo keeps them off its progress bar). */
  logWrite?: (line: string) => void;
}

/** Opens the data directory, resumes interrupted work, and listens. */
export async function startService(config: Config, opts: StartOptions = {}): Promise<RunningService> {
  const log = createLogger(config.logLevel, opts.logWrite);
  const state = await openServiceState(config, SERVER_BUSY_TIMEOUT_MS);
  const engine = createEngine(config);
  const vectors = createVectorIndex(config);
  for (const warning of (await engine.check?.()) ?? []) log.warn(warning);
  const storage = new StorageHealth({ dataDir: config.dataDir, minFreeBytes: config.minFreeDiskBytes, log, ...(state.ping ? { ping: state.ping } : {}) });
  storage.start();
  const { app, engine: guardedEngine, worker, stores, searchLog, purchaseSignals, productPageModels, indexingBusy, events, webhookDispatcher, enrichment, enrichedSearch, meaning, hybrid } = buildApp({
    state,
    indexingLeaseMs: config.indexingLeaseMs,
    engine,
    log,
    storage,
    maxBodyBytes: config.maxBodyBytes,
    widgetScriptFile: config.widgetScriptFile,
    staffPagesDir: config.staffPagesDir,
    rateLimits: config.rateLimits,
    dbSynchronous: config.dbSynchronous,
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    adminOrigin: config.publicUrl,
    metricsToken: config.metricsToken,
    webhooks: config.webhooks,
    enrichmentAllowPrivateNetworks: config.enrichmentAllowPrivateNetworks,
    ...(config.embeddings && vectors ? { hybrid: { embeddings: config.embeddings, vectors } } : {}),
  });
  const storeAdmin = new StoreAdmin(stores, Date.now);
  if (config.demoStore) {
    const d = config.demoStore;
    const stale = await storeAdmin.ensure(d.storeId, { admin: d.adminKey, search: d.searchKey, analytics: d.analyticsKey });
    for (const kind of stale) {
      log.warn("demo store key setting is out of date", { storeId: d.storeId, kind, hint: "the key was rotated or revoked with the stores CLI; the configured one stays retired" });
    }
  }
  const served = opts.extend ? opts.extend(app as unknown as Elysia) : app;
  const tls = config.tls
    ? { cert: Bun.file(config.tls.certFile), key: Bun.file(config.tls.keyFile), ciphers: TLS_CIPHERS, secureOptions: TLS_SECURE_OPTIONS }
    : undefined;
  served.listen({
    port: config.port,
    hostname: config.host,
    tls,
    // Our own reader enforces MAX_BODY_BYTES with a JSON 413; Bun's limit is only a backstop above it.
    maxRequestBodySize: config.maxBodyBytes * 2 + 1024 * 1024,
  });
  await purchaseSignals.syncAll();
  worker.start();
  // Settles webhook calls a stopped or killed process left in flight, then sends what is due.
  webhookDispatcher.start();
  // First counts the events acknowledged before a stop or crash but not counted yet.
  events.start();
  // In the background: the first searches after a restart should not wait for a store's in-memory index.
  // Product pages' models (similar products and looks, from one read of the catalog) follow a little later, so
  // that they do not slow the stores' first searches; a product page opened before then waits for its store's
  // (about 3 s for 50k products). Only catalogs found at start: one indexed while the service runs gets its
  // models from the first product page that needs them.
  const preloaded = await stores.list();
  const withCatalog: typeof preloaded = [];
  for (const store of preloaded) if ((await state.catalog.liveProductsAfter(store.id, "", 1)).length > 0) withCatalog.push(store);
  let pageModelsPreload: ReturnType<typeof setTimeout> | undefined;
  let stopping = false;
  // Product enrichment resumes the stages queued before a stop or crash, once the indexes are loaded: its stages
  // and their search updates run on the thread that loads them, and a restart in the middle of a first start's
  // enrichment (tens of thousands of stages queued) held the first search back by seconds.
  const startEnrichment = () => {
    if (stopping) return;
    enrichment.start();
    enrichedSearch.start();
  };
  guardedEngine
    .preload(preloaded.map((s) => s.id))
    .finally(startEnrichment)
    .then(() => {
      pageModelsPreload = setTimeout(() => {
        productPageModels.preload(withCatalog, indexingBusy).catch((error: Error) => log.error("preloading similar products and looks failed", { error: error.message }));
      }, PAGE_MODELS_PRELOAD_DELAY_MS);
      pageModelsPreload.unref?.();
    })
    .catch((error: Error) => log.error("preloading the search index failed", { error: error.message }));
  const retention = new RetentionJob({ stores, events: state.events, searchLog: state.searchLog, retentionDays: config.retentionDays, now: Date.now, log });
  retention.start();
  const server = served.server!;
  const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  const url = `${config.tls ? "https" : "http"}://${shownHost}:${server.port}`;
  log.info("listening", { url, engine: engine.kind, state: state.source.kind, dataDir: config.dataDir, ...(vectors ? { hybrid: vectors.kind } : {}) });
  return {
    url,
    log,
    storeAdmin,
    engineCount: (storeId) => engine.count(storeId),
    engineVersions: (storeId, ids) => engine.versions(storeId, ids),
    async stop() {
      stopping = true;
      storage.stop();
      clearTimeout(pageModelsPreload);
      productPageModels.stop();
      await served.stop();
      meaning.stop();
      await hybrid?.stop();
      await enrichment.stop();
      await enrichedSearch.stop();
      await webhookDispatcher.stop();
      await worker.stop();
      await retention.stop();
      await events.stop();
      await searchLog.flush();
      await purchaseSignals.drain();
      await engine.close();
      await vectors?.close();
      await state.close();
    },
  };
}
