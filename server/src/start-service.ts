import type { Elysia } from "elysia";
import { buildApp } from "./app.ts";
import { StoreAdmin } from "./auth/store-admin.ts";
import type { Config } from "./config.ts";
import { openServiceDatabase } from "./db/connection.ts";
import { createEngine } from "./engine/create-engine.ts";
import { createLogger, type Logger } from "./log.ts";

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
}

/** Opens the data directory, resumes interrupted work, and listens. */
export async function startService(config: Config, opts: StartOptions = {}): Promise<RunningService> {
  const log = createLogger(config.logLevel);
  const db = openServiceDatabase(config.dataDir, { synchronous: config.dbSynchronous });
  const engine = createEngine(config);
  for (const warning of (await engine.check?.()) ?? []) log.warn(warning);
  const { app, worker, stores, searchLog, purchaseSignals } = buildApp({ db, engine, log, maxBodyBytes: config.maxBodyBytes, widgetScriptFile: config.widgetScriptFile });
  const storeAdmin = new StoreAdmin(stores, Date.now);
  if (config.demoStore) {
    const d = config.demoStore;
    storeAdmin.ensure(d.storeId, { admin: d.adminKey, search: d.searchKey, analytics: d.analyticsKey });
  }
  const served = opts.extend ? opts.extend(app as unknown as Elysia) : app;
  const tls = config.tls ? { cert: Bun.file(config.tls.certFile), key: Bun.file(config.tls.keyFile) } : undefined;
  served.listen({
    port: config.port,
    hostname: config.host,
    tls,
    // Our own reader enforces MAX_BODY_BYTES with a JSON 413; Bun's limit is only a backstop above it.
    maxRequestBodySize: config.maxBodyBytes * 2 + 1024 * 1024,
  });
  await purchaseSignals.syncAll();
  worker.start();
  const server = served.server!;
  const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  const url = `${config.tls ? "https" : "http"}://${shownHost}:${server.port}`;
  log.info("listening", { url, engine: engine.kind, dataDir: config.dataDir });
  return {
    url,
    log,
    storeAdmin,
    engineCount: (storeId) => engine.count(storeId),
    engineVersions: (storeId, ids) => engine.versions(storeId, ids),
    async stop() {
      await served.stop();
      await worker.stop();
      searchLog.flush();
      await purchaseSignals.drain();
      await engine.close();
      db.close();
    },
  };
}
