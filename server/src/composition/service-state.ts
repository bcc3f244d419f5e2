import { Database } from "bun:sqlite";
import type { Config } from "../config.ts";
import { openDatabase, openServiceDatabase } from "../platform/sqlite/connection.ts";
import { SqliteBehaviourRepo } from "../modules/ranking/storage/behaviour.sqlite.ts";
import { SqliteRecommendationsRepo } from "../modules/recommendations/storage/recommendations.sqlite.ts";
import { PostgresRecommendationsRepo } from "../modules/recommendations/storage/recommendations.postgres.ts";
import type { RecommendationsRepository } from "../modules/recommendations/storage/recommendations-repository.ts";
import type { BehaviourRepository } from "../modules/ranking/storage/behaviour-repository.ts";
import { SqliteCatalogRepo } from "../modules/catalog/storage/catalog.sqlite.ts";
import type { CatalogRepository } from "../modules/catalog/storage/catalog-repository.ts";
import { SingleProcessFeed, type ChangeFeed } from "../platform/change-feed.ts";
import { SqliteEnrichmentRepo } from "../modules/enrichment/storage/enrichment.sqlite.ts";
import type { EnrichmentRepository } from "../modules/enrichment/storage/enrichment-repository.ts";
import { SqliteEventsRepo } from "../modules/events/storage/events.sqlite.ts";
import type { EventsRepository } from "../modules/events/storage/events-repository.ts";
import { SqliteLooksRepo } from "../modules/looks/storage/looks.sqlite.ts";
import type { LooksRepository } from "../modules/looks/storage/looks-repository.ts";
import { PostgresBehaviourRepo } from "../modules/ranking/storage/behaviour.postgres.ts";
import { PostgresCatalogRepo } from "../modules/catalog/storage/catalog.postgres.ts";
import { PostgresChangeFeed } from "../platform/postgres/change-feed.ts";
import { migratePostgres, openPostgres, type Sql } from "../platform/postgres/connection.ts";
import { PostgresEnrichmentRepo } from "../modules/enrichment/storage/enrichment.postgres.ts";
import { PostgresEventsRepo } from "../modules/events/storage/events.postgres.ts";
import { PostgresLooksRepo } from "../modules/looks/storage/looks.postgres.ts";
import { PostgresPurchaseCounts } from "../modules/analytics/storage/purchase-counts.postgres.ts";
import { PostgresReportsRepo } from "../modules/reports/storage/reports.postgres.ts";
import { PostgresRulesRepo } from "../modules/rules/storage/rules.postgres.ts";
import { PostgresExperimentsRepo } from "../modules/experiments/storage/experiments.postgres.ts";
import { SqliteExperimentsRepo } from "../modules/experiments/storage/experiments.sqlite.ts";
import type { ExperimentsRepository } from "../modules/experiments/storage/experiments-repository.ts";
import { PostgresSearchLogRepo } from "../modules/search-log/storage/search-log.postgres.ts";
import { PostgresShopperErasureRepo } from "../modules/analytics/storage/shopper-erasure.postgres.ts";
import { PostgresStoresRepo } from "../modules/stores/storage/stores.postgres.ts";
import { PostgresSynonymsRepo } from "../modules/synonyms/storage/synonyms.postgres.ts";
import { PostgresTasksRepo } from "../modules/indexing/storage/tasks.postgres.ts";
import { PostgresTrendInputsRepo } from "../modules/enrichment/storage/trend-inputs.postgres.ts";
import { PostgresWebhooksRepo } from "../modules/webhooks/storage/webhooks.postgres.ts";
import type { PurchaseCounts } from "../modules/analytics/storage/purchase-counts-repository.ts";
import { SqliteReportsRepo } from "../modules/reports/storage/reports.sqlite.ts";
import type { ReportsRepository } from "../modules/reports/storage/reports-repository.ts";
import { SqliteRulesRepo } from "../modules/rules/storage/rules.sqlite.ts";
import type { RulesRepository } from "../modules/rules/storage/rules-repository.ts";
import { SqliteSearchLogRepo } from "../modules/search-log/storage/search-log.sqlite.ts";
import type { SearchLogRepository } from "../modules/search-log/storage/search-log-repository.ts";
import { SqliteShopperErasureRepo } from "../modules/analytics/storage/shopper-erasure.sqlite.ts";
import type { ShopperErasureRepository } from "../modules/analytics/storage/shopper-erasure-repository.ts";
import { SqlitePurchaseCounts } from "../modules/analytics/storage/purchase-counts.sqlite.ts";
import type { StateSource } from "../platform/state-source.ts";
import { SqliteStoresRepo } from "../modules/stores/storage/stores.sqlite.ts";
import type { StoresRepository } from "../modules/stores/storage/stores-repository.ts";
import { SqliteSynonymsRepo } from "../modules/synonyms/storage/synonyms.sqlite.ts";
import type { SynonymsRepository } from "../modules/synonyms/storage/synonyms-repository.ts";
import { SqliteTasksRepo } from "../modules/indexing/storage/tasks.sqlite.ts";
import type { TasksRepository } from "../modules/indexing/storage/tasks-repository.ts";
import { SqliteTrendInputsRepo } from "../modules/enrichment/storage/trend-inputs.sqlite.ts";
import type { TrendInputsRepository } from "../modules/enrichment/storage/trend-inputs-repository.ts";
import { BulkCache } from "../platform/sqlite/bulk-cache.ts";
import { WalCheckpoints } from "../platform/sqlite/wal-checkpoints.ts";
import { SqliteWebhooksRepo } from "../modules/webhooks/storage/webhooks.sqlite.ts";
import type { WebhooksRepository } from "../modules/webhooks/storage/webhooks-repository.ts";

import { SqliteAnalyticsStateRepo } from "../modules/analytics/storage/analytics-state.sqlite.ts";
import { PostgresAnalyticsStateRepo } from "../modules/analytics/storage/analytics-state.postgres.ts";
import type { AnalyticsStateRepository } from "../modules/analytics/storage/analytics-state-repository.ts";
import { SqliteEventIngest } from "../modules/tracking/storage/event-ingest.sqlite.ts";
import { PostgresEventIngest } from "../modules/tracking/storage/event-ingest.postgres.ts";
import type { EventIngest } from "../modules/tracking/storage/event-ingest-repository.ts";
/*
 * The service's durable state as every thread sees it: each feature's repository, on the embedded SQLite file or on
 * PostgreSQL (DATABASE_URL). This is the one place that chooses between the two: the serving thread opens the state
 * (with the change feed replicas tell each other of cached data with), and the indexing and events threads open a
 * connection of their own to the same state.
 */

/** Every feature's repository on one connection to the state. */
export interface Repositories {
  stores: StoresRepository;
  tasks: TasksRepository;
  catalog: CatalogRepository;
  enrichment: EnrichmentRepository;
  events: EventsRepository;
  /** Taken in on the events thread. */
  ingest: EventIngest;
  /** Counted on the events thread. */
  analytics: AnalyticsStateRepository;
  behaviour: BehaviourRepository;
  recommendations: RecommendationsRepository;
  reports: ReportsRepository;
  erasure: ShopperErasureRepository;
  trendInputs: TrendInputsRepository;
  searchLog: SearchLogRepository;
  synonyms: SynonymsRepository;
  rules: RulesRepository;
  experiments: ExperimentsRepository;
  webhooks: WebhooksRepository;
  looks: LooksRepository;
  purchaseCounts: PurchaseCounts;
}

/** An open connection to the state (indexing batches on the serving thread's SQLite file commit through checkpoints). */
type StateConnection =
  | { kind: "sqlite"; db: Database; checkpoints?: WalCheckpoints; bulkCache?: BulkCache }
  | { kind: "postgres"; sql: Sql };

function repositoriesOn(c: StateConnection): Repositories {
  if (c.kind === "sqlite") {
    const { db } = c;
    return {
      stores: new SqliteStoresRepo(db),
      tasks: new SqliteTasksRepo(db, c.checkpoints, c.bulkCache),
      catalog: new SqliteCatalogRepo(db, c.checkpoints),
      enrichment: new SqliteEnrichmentRepo(db),
      events: new SqliteEventsRepo(db),
      ingest: new SqliteEventIngest(db),
      analytics: new SqliteAnalyticsStateRepo(db),
      behaviour: new SqliteBehaviourRepo(db),
      recommendations: new SqliteRecommendationsRepo(db),
      reports: new SqliteReportsRepo(db),
      erasure: new SqliteShopperErasureRepo(db),
      trendInputs: new SqliteTrendInputsRepo(db),
      searchLog: new SqliteSearchLogRepo(db),
      synonyms: new SqliteSynonymsRepo(db),
      rules: new SqliteRulesRepo(db),
      experiments: new SqliteExperimentsRepo(db),
      webhooks: new SqliteWebhooksRepo(db),
      looks: new SqliteLooksRepo(db),
      purchaseCounts: new SqlitePurchaseCounts(db),
    };
  }
  const { sql } = c;
  return {
    stores: new PostgresStoresRepo(sql),
    tasks: new PostgresTasksRepo(sql),
    catalog: new PostgresCatalogRepo(sql),
    enrichment: new PostgresEnrichmentRepo(sql),
    events: new PostgresEventsRepo(sql),
    ingest: new PostgresEventIngest(sql),
    analytics: new PostgresAnalyticsStateRepo(sql),
    behaviour: new PostgresBehaviourRepo(sql),
    recommendations: new PostgresRecommendationsRepo(sql),
    reports: new PostgresReportsRepo(sql),
    erasure: new PostgresShopperErasureRepo(sql),
    trendInputs: new PostgresTrendInputsRepo(sql),
    searchLog: new PostgresSearchLogRepo(sql),
    synonyms: new PostgresSynonymsRepo(sql),
    rules: new PostgresRulesRepo(sql),
    experiments: new PostgresExperimentsRepo(sql),
    webhooks: new PostgresWebhooksRepo(sql),
    looks: new PostgresLooksRepo(sql),
    purchaseCounts: new PostgresPurchaseCounts(sql),
  };
}

export interface ServiceState extends Repositories {
  source: StateSource;
  /** No other process shares this state (the embedded file): what a previous run left in flight is this one's. */
  singleProcess: boolean;
  changeFeed: ChangeFeed;
  /** Whether a database elsewhere answers (PostgreSQL); absent for the embedded file. */
  ping?: () => Promise<void>;
  /** Stops what the state runs beside the service (checkpoints, the feed) and closes its connections. */
  close(): Promise<void>;
}

/** The state `config` names: PostgreSQL when DATABASE_URL is set, else the SQLite file in DATA_DIR. */
export async function openServiceState(
  config: Pick<Config, "databaseUrl" | "dataDir" | "dbSynchronous" | "sqliteMmapBytes" | "sqliteCacheKib" | "sqliteBulkCacheKib">,
  busyTimeoutMs?: number,
): Promise<ServiceState> {
  if (config.databaseUrl) {
    const url = config.databaseUrl;
    const sql = openPostgres(url);
    await migratePostgres(sql);
    const changeFeed = new PostgresChangeFeed(sql);
    await changeFeed.start();
    return {
      ...repositoriesOn({ kind: "postgres", sql }),
      source: { kind: "postgres", url },
      singleProcess: false,
      changeFeed,
      ping: async () => void (await sql`SELECT 1`),
      async close() {
        await changeFeed.close();
        await sql.end({ timeout: 5 });
      },
    };
  }
  const tuning = { mmapBytes: config.sqliteMmapBytes, cacheKib: config.sqliteCacheKib };
  const db = openServiceDatabase(config.dataDir, { synchronous: config.dbSynchronous, busyTimeoutMs, ...tuning });
  // Indexing batches commit without waiting for the disk; their log is checkpointed on a thread of its own.
  const checkpoints = new WalCheckpoints(db);
  const bulkCache = new BulkCache(db, config.sqliteBulkCacheKib);
  return {
    ...repositoriesOn({ kind: "sqlite", db, checkpoints, bulkCache }),
    source: { kind: "sqlite", path: db.filename, ...tuning },
    singleProcess: true,
    // One process holds every cache: there is no one to tell.
    changeFeed: new SingleProcessFeed(),
    close: async () => {
      checkpoints.close();
      bulkCache.close();
      db.close();
    },
  };
}

export interface ThreadConnection {
  /** Reads only (on SQLite, a read-only connection). */
  readonly?: boolean;
  /** SQLite: whether a commit waits for the disk, as the serving thread's do. */
  synchronous?: "FULL" | "NORMAL";
  /** SQLite: how long a write waits for a lock held elsewhere. */
  busyTimeoutMs?: number;
  /** PostgreSQL: connections in the thread's pool. */
  maxConnections: number;
}

/** A worker thread's own connection to the state the serving thread opened (already migrated), and its closing. */
export function connectState(source: StateSource, o: ThreadConnection): Repositories & { close(): Promise<void> } {
  if (source.kind === "sqlite") {
    const db = o.readonly
      ? new Database(source.path, { readonly: true })
      : openDatabase(source.path, {
          synchronous: o.synchronous ?? "FULL",
          busyTimeoutMs: o.busyTimeoutMs,
          mmapBytes: source.mmapBytes,
          cacheKib: source.cacheKib,
        });
    return { ...repositoriesOn({ kind: "sqlite", db }), close: async () => db.close() };
  }
  const sql = openPostgres(source.url, { max: o.maxConnections });
  return { ...repositoriesOn({ kind: "postgres", sql }), close: () => sql.end({ timeout: 5 }) };
}
