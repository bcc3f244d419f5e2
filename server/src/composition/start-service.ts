import type { Elysia } from "elysia";
import { buildApp } from "./app.ts";
import { StoreAdmin } from "../modules/stores/store-admin.ts";
import type { Config } from "../config.ts";
import { SERVER_BUSY_TIMEOUT_MS } from "../platform/sqlite/connection.ts";
import { openServiceState } from "./service-state.ts";
import { StorageHealth } from "../platform/storage-health.ts";
import { TLS_CIPHERS, TLS_SECURE_OPTIONS } from "../http/tls-policy.ts";
import { createEngine, createVectorIndex } from "../engine/create-engine.ts";
import { createLogger, type Logger } from "../log.ts";
import { startParts, stopParts } from "./lifecycle.ts";

// The entry points' first step (main.ts, the demo's start), which sizes the heap before anything is opened.
export { restartWithHeapSizing } from "./heap-sizing.ts";

/** How long a connection may stay silent, a request waiting for its answer included (seconds). */
const IDLE_TIMEOUT_SECONDS = 120;

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
  const storage = new StorageHealth({
    dataDir: config.dataDir,
    minFreeBytes: config.minFreeDiskBytes,
    log,
    ...(state.ping ? { ping: state.ping } : {}),
  });
  storage.start();
  const { app, parts, stores } = buildApp({
    state,
    indexingLeaseMs: config.indexingLeaseMs,
    searchLogSettleMs: config.searchLogSettleMs,
    searchBudgetMs: config.searchBudgetMs,
    engine,
    log,
    storage,
    maxBodyBytes: config.maxBodyBytes,
    widgetScriptFile: config.widgetScriptFile,
    instantsearchClientFile: config.instantsearchClientFile,
    staffPagesDir: config.staffPagesDir,
    rateLimits: config.rateLimits,
    dbSynchronous: config.dbSynchronous,
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    adminOrigin: config.publicUrl,
    metricsToken: config.metricsToken,
    webhooks: config.webhooks,
    enrichmentAllowPrivateNetworks: config.enrichmentAllowPrivateNetworks,
    retentionDays: config.retentionDays,
    ...(config.embeddings && vectors ? { hybrid: { embeddings: config.embeddings, vectors } } : {}),
  });
  const storeAdmin = new StoreAdmin(stores, Date.now);
  if (config.demoStore) {
    const d = config.demoStore;
    const stale = await storeAdmin.ensure(d.storeId, { admin: d.adminKey, search: d.searchKey, analytics: d.analyticsKey });
    for (const kind of stale) {
      log.warn("demo store key setting is out of date", {
        storeId: d.storeId,
        kind,
        hint: "the key was rotated or revoked with the stores CLI; the configured one stays retired",
      });
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
    // Bun cuts a connection that sends or receives nothing for 10 s, which a request still waiting for its answer
    // counts as: a large store's first search after a restart (its index loading) or first product page (its models
    // building) outlasted it at 200,000 products. Bun allows at most 255 s.
    idleTimeout: IDLE_TIMEOUT_SECONDS,
  });
  await startParts(parts);
  const server = served.server!;
  const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  const url = `${config.tls ? "https" : "http"}://${shownHost}:${server.port}`;
  log.info("listening", {
    url,
    engine: engine.kind,
    state: state.source.kind,
    dataDir: config.dataDir,
    ...(vectors ? { hybrid: vectors.kind } : {}),
  });
  return {
    url,
    log,
    storeAdmin,
    engineCount: (storeId) => engine.count(storeId),
    engineVersions: (storeId, ids) => engine.versions(storeId, ids),
    async stop() {
      // No request reaches a part that is stopping.
      await served.stop();
      await stopParts(parts, log);
      storage.stop();
      await engine.close();
      await vectors?.close();
      await state.close();
    },
  };
}
