import type { Database } from "bun:sqlite";
import type { Config } from "../config.ts";
import { openServiceDatabase } from "./connection.ts";
import { BehaviourRepo } from "./behaviour-repo.ts";
import type { BehaviourRepository } from "./behaviour-repository.ts";
import { CatalogRepo } from "./catalog-repo.ts";
import type { CatalogRepository } from "./catalog-repository.ts";
import { SingleProcessFeed, type ChangeFeed } from "./change-feed.ts";
import { EnrichmentRepo } from "./enrichment-repo.ts";
import type { EnrichmentRepository } from "./enrichment-repository.ts";
import { EventsRepo } from "./events-repo.ts";
import type { EventsRepository } from "./events-repository.ts";
import { SqliteLooksRepo } from "./looks-repo.ts";
import type { LooksRepository } from "./looks-repository.ts";
import { PostgresBehaviourRepo } from "./postgres/behaviour-repo.ts";
import { PostgresCatalogRepo } from "./postgres/catalog-repo.ts";
import { PostgresChangeFeed } from "./postgres/change-feed.ts";
import { migratePostgres, openPostgres } from "./postgres/connection.ts";
import { PostgresEnrichmentRepo } from "./postgres/enrichment-repo.ts";
import { PostgresEventsRepo } from "./postgres/events-repo.ts";
import { PostgresLooksRepo } from "./postgres/looks-repo.ts";
import { PostgresPurchaseCounts } from "./postgres/purchase-counts.ts";
import { PostgresReportsRepo } from "./postgres/reports-repo.ts";
import { PostgresRulesRepo } from "./postgres/rules-repo.ts";
import { PostgresSearchLogRepo } from "./postgres/search-log-repo.ts";
import { PostgresShopperErasureRepo } from "./postgres/shopper-erasure-repo.ts";
import { PostgresStoresRepo } from "./postgres/stores-repo.ts";
import { PostgresSynonymsRepo } from "./postgres/synonyms-repo.ts";
import { PostgresTasksRepo } from "./postgres/tasks-repo.ts";
import { PostgresTrendInputsRepo } from "./postgres/trend-inputs-repo.ts";
import { PostgresWebhooksRepo } from "./postgres/webhooks-repo.ts";
import type { PurchaseCounts } from "./purchase-counts.ts";
import { ReportsRepo } from "./reports-repo.ts";
import type { ReportsRepository } from "./reports-repository.ts";
import { SqliteRulesRepo } from "./rules-repo.ts";
import type { RulesRepository } from "./rules-repository.ts";
import { SqliteSearchLogRepo } from "./search-log-repo.ts";
import type { SearchLogRepository } from "./search-log-repository.ts";
import { ShopperErasureRepo } from "./shopper-erasure-repo.ts";
import type { ShopperErasureRepository } from "./shopper-erasure-repository.ts";
import { SignalsRepo } from "./signals-repo.ts";
import type { StateSource } from "./state-source.ts";
import { SqliteStoresRepo } from "./stores-repo.ts";
import type { StoresRepository } from "./stores-repository.ts";
import { SqliteSynonymsRepo } from "./synonyms-repo.ts";
import type { SynonymsRepository } from "./synonyms-repository.ts";
import { TasksRepo } from "./tasks-repo.ts";
import type { TasksRepository } from "./tasks-repository.ts";
import { TrendInputsRepo } from "./trend-inputs-repo.ts";
import type { TrendInputsRepository } from "./trend-inputs-repository.ts";
import { WalCheckpoints } from "./wal-checkpoints.ts";
import { SqliteWebhooksRepo } from "./webhooks-repo.ts";
import type { WebhooksRepository } from "./webhooks-repository.ts";

/*
 * The service's durable state as the rest of the service sees it: one repository per concern, on the embedded
 * SQLite file or on PostgreSQL (DATABASE_URL), and the change feed replicas tell each other of cached data with.
 * Shopper events are taken in and counted through the events thread's own connection (events-thread-main.ts).
 */
export interface ServiceState {
  source: StateSource;
  /** No other process shares this state (the embedded file): what a previous run left in flight is this one's. */
  singleProcess: boolean;
  stores: StoresRepository;
  tasks: TasksRepository;
  catalog: CatalogRepository;
  enrichment: EnrichmentRepository;
  events: EventsRepository;
  behaviour: BehaviourRepository;
  reports: ReportsRepository;
  erasure: ShopperErasureRepository;
  trendInputs: TrendInputsRepository;
  searchLog: SearchLogRepository;
  synonyms: SynonymsRepository;
  rules: RulesRepository;
  webhooks: WebhooksRepository;
  looks: LooksRepository;
  purchaseCounts: PurchaseCounts;
  changeFeed: ChangeFeed;
  /** Whether a database elsewhere answers (PostgreSQL); absent for the embedded file. */
  ping?: () => Promise<void>;
  /** Stops what the state runs beside the service (checkpoints, the feed) and closes its connections. */
  close(): Promise<void>;
}

/** The state `config` names: PostgreSQL when DATABASE_URL is set, else the SQLite file in DATA_DIR. */
export async function openServiceState(config: Pick<Config, "databaseUrl" | "dataDir" | "dbSynchronous">, busyTimeoutMs?: number): Promise<ServiceState> {
  if (config.databaseUrl) return postgresState(config.databaseUrl);
  const db = openServiceDatabase(config.dataDir, { synchronous: config.dbSynchronous, busyTimeoutMs });
  const state = sqliteState(db);
  return { ...state, close: async () => (await state.close(), db.close()) };
}

/** The embedded state: one SQLite file, one process. */
export function sqliteState(db: Database): ServiceState {
  // Indexing batches commit without waiting for the disk; their log is checkpointed on a thread of its own.
  const checkpoints = new WalCheckpoints(db);
  return {
    source: { kind: "sqlite", path: db.filename },
    singleProcess: true,
    stores: new SqliteStoresRepo(db),
    tasks: new TasksRepo(db),
    catalog: new CatalogRepo(db, checkpoints),
    enrichment: new EnrichmentRepo(db),
    events: new EventsRepo(db),
    behaviour: new BehaviourRepo(db),
    reports: new ReportsRepo(db),
    erasure: new ShopperErasureRepo(db),
    trendInputs: new TrendInputsRepo(db),
    searchLog: new SqliteSearchLogRepo(db),
    synonyms: new SqliteSynonymsRepo(db),
    rules: new SqliteRulesRepo(db),
    webhooks: new SqliteWebhooksRepo(db),
    looks: new SqliteLooksRepo(db),
    purchaseCounts: new SignalsRepo(db),
    // One process holds every cache: there is no one to tell.
    changeFeed: new SingleProcessFeed(),
    close: async () => checkpoints.close(),
  };
}

/** PostgreSQL (DATABASE_URL), shared by every replica: migrated (once, under a lock) and listening when returned. */
export async function postgresState(url: string): Promise<ServiceState> {
  const sql = openPostgres(url);
  await migratePostgres(sql);
  const changeFeed = new PostgresChangeFeed(sql);
  await changeFeed.start();
  return {
    source: { kind: "postgres", url },
    singleProcess: false,
    stores: new PostgresStoresRepo(sql),
    tasks: new PostgresTasksRepo(sql),
    catalog: new PostgresCatalogRepo(sql),
    enrichment: new PostgresEnrichmentRepo(sql),
    events: new PostgresEventsRepo(sql),
    behaviour: new PostgresBehaviourRepo(sql),
    reports: new PostgresReportsRepo(sql),
    erasure: new PostgresShopperErasureRepo(sql),
    trendInputs: new PostgresTrendInputsRepo(sql),
    searchLog: new PostgresSearchLogRepo(sql),
    synonyms: new PostgresSynonymsRepo(sql),
    rules: new PostgresRulesRepo(sql),
    webhooks: new PostgresWebhooksRepo(sql),
    looks: new PostgresLooksRepo(sql),
    purchaseCounts: new PostgresPurchaseCounts(sql),
    changeFeed,
    ping: async () => void (await sql`SELECT 1`),
    async close() {
      await changeFeed.close();
      await sql.end({ timeout: 5 });
    },
  };
}
