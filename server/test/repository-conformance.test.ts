import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { Database } from "bun:sqlite";
import { migrate, openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { MIGRATIONS } from "../src/platform/sqlite/schema.ts";
import { migratePostgres, openPostgres, type Sql } from "../src/platform/postgres/connection.ts";
import { POSTGRES_MIGRATIONS } from "../src/platform/postgres/schema.ts";
import { SqliteCatalogRepo } from "../src/modules/catalog/storage/catalog.sqlite.ts";
import type { CatalogRepository, CommittedProduct } from "../src/modules/catalog/storage/catalog-repository.ts";
import { SqliteEventIngest } from "../src/modules/tracking/storage/event-ingest.sqlite.ts";
import { SqliteEnrichmentRepo } from "../src/modules/enrichment/storage/enrichment.sqlite.ts";
import type { EnrichmentJob, EnrichmentRepository } from "../src/modules/enrichment/storage/enrichment-repository.ts";
import { SqliteAnalyticsStateRepo } from "../src/modules/analytics/storage/analytics-state.sqlite.ts";
import { SqliteReportsRepo } from "../src/modules/reports/storage/reports.sqlite.ts";
import type { ReportScope, ReportsRepository } from "../src/modules/reports/storage/reports-repository.ts";
import { PostgresReportsRepo } from "../src/modules/reports/storage/reports.postgres.ts";
import { SqliteShopperErasureRepo } from "../src/modules/analytics/storage/shopper-erasure.sqlite.ts";
import type { ShopperErasureRepository } from "../src/modules/analytics/storage/shopper-erasure-repository.ts";
import { PostgresShopperErasureRepo } from "../src/modules/analytics/storage/shopper-erasure.postgres.ts";
import { NO_RECOMMENDATION_WRITES } from "../src/modules/analytics/storage/recommendation-signals-repository.ts";
import { SqliteTrendInputsRepo } from "../src/modules/enrichment/storage/trend-inputs.sqlite.ts";
import type { TrendInputsRepository } from "../src/modules/enrichment/storage/trend-inputs-repository.ts";
import { PostgresTrendInputsRepo } from "../src/modules/enrichment/storage/trend-inputs.postgres.ts";
import { SqliteBehaviourRepo } from "../src/modules/ranking/storage/behaviour.sqlite.ts";
import type { BehaviourRepository } from "../src/modules/ranking/storage/behaviour-repository.ts";
import { PostgresBehaviourRepo } from "../src/modules/ranking/storage/behaviour.postgres.ts";
import { SqliteRecommendationsRepo } from "../src/modules/recommendations/storage/recommendations.sqlite.ts";
import type { RecommendationsRepository } from "../src/modules/recommendations/storage/recommendations-repository.ts";
import { PostgresRecommendationsRepo } from "../src/modules/recommendations/storage/recommendations.postgres.ts";
import { RecommendationLearner } from "../src/modules/recommendations/recommendation-learner.ts";
import { EvidenceCache } from "../src/modules/ranking/evidence-cache.ts";
import type { AnalyticsStateRepository } from "../src/modules/analytics/storage/analytics-state-repository.ts";
import { PostgresAnalyticsStateRepo } from "../src/modules/analytics/storage/analytics-state.postgres.ts";
import { PostgresCatalogRepo } from "../src/modules/catalog/storage/catalog.postgres.ts";
import { AnalyticsWorker } from "../src/modules/analytics/analytics-worker.ts";
import { ReportCounter } from "../src/modules/analytics/report-counter.ts";
import { BehaviourLearner } from "../src/modules/ranking/behaviour-learner.ts";
import { ProductFacts } from "../src/modules/ranking/product-facts.ts";
import { createLogger } from "../src/log.ts";
import { PostgresEnrichmentRepo } from "../src/modules/enrichment/storage/enrichment.postgres.ts";
import { PostgresTasksRepo } from "../src/modules/indexing/storage/tasks.postgres.ts";
import { SqliteTasksRepo } from "../src/modules/indexing/storage/tasks.sqlite.ts";
import type { TasksRepository } from "../src/modules/indexing/storage/tasks-repository.ts";
import type { EventIngest } from "../src/modules/tracking/storage/event-ingest-repository.ts";
import { SqliteEventsRepo } from "../src/modules/events/storage/events.sqlite.ts";
import type { EventsRepository, NewEvent } from "../src/modules/events/storage/events-repository.ts";
import { PostgresEventsRepo } from "../src/modules/events/storage/events.postgres.ts";
import { PostgresChangeFeed } from "../src/platform/postgres/change-feed.ts";
import { EVENT_APPEND_LOCK, PostgresEventIngest } from "../src/modules/tracking/storage/event-ingest.postgres.ts";
import { PostgresRulesRepo } from "../src/modules/rules/storage/rules.postgres.ts";
import { PostgresStoresRepo } from "../src/modules/stores/storage/stores.postgres.ts";
import { PostgresWebhooksRepo } from "../src/modules/webhooks/storage/webhooks.postgres.ts";
import { PostgresLooksRepo } from "../src/modules/looks/storage/looks.postgres.ts";
import { PostgresSearchLogRepo } from "../src/modules/search-log/storage/search-log.postgres.ts";
import { SqliteSearchLogRepo } from "../src/modules/search-log/storage/search-log.sqlite.ts";
import type { SearchLogEntry, SearchLogRepository } from "../src/modules/search-log/storage/search-log-repository.ts";
import { PostgresPurchaseCounts } from "../src/modules/analytics/storage/purchase-counts.postgres.ts";
import { SqliteLooksRepo } from "../src/modules/looks/storage/looks.sqlite.ts";
import type { LooksRepository } from "../src/modules/looks/storage/looks-repository.ts";
import type { PurchaseCounts } from "../src/modules/analytics/storage/purchase-counts-repository.ts";
import { SqlitePurchaseCounts } from "../src/modules/analytics/storage/purchase-counts.sqlite.ts";
import { SqliteWebhooksRepo } from "../src/modules/webhooks/storage/webhooks.sqlite.ts";
import { MAX_KEPT_ATTEMPTS, type WebhooksRepository } from "../src/modules/webhooks/storage/webhooks-repository.ts";
import { MAX_ATTEMPTS } from "../src/modules/webhooks/webhook-schedule.ts";
import { PostgresSynonymsRepo } from "../src/modules/synonyms/storage/synonyms.postgres.ts";
import { SqliteRulesRepo } from "../src/modules/rules/storage/rules.sqlite.ts";
import { PostgresExperimentsRepo } from "../src/modules/experiments/storage/experiments.postgres.ts";
import { SqliteExperimentsRepo } from "../src/modules/experiments/storage/experiments.sqlite.ts";
import type { ExperimentsRepository, StoredExperiment } from "../src/modules/experiments/storage/experiments-repository.ts";
import type { RulesRepository } from "../src/modules/rules/storage/rules-repository.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import type { StoresRepository } from "../src/modules/stores/storage/stores-repository.ts";
import { SqliteSynonymsRepo } from "../src/modules/synonyms/storage/synonyms.sqlite.ts";
import type { SynonymsRepository } from "../src/modules/synonyms/storage/synonyms-repository.ts";
import type { EngineSearchRequest } from "../src/engine/types.ts";
import { SynonymService } from "../src/modules/synonyms/synonym-service.ts";
import { findCaller } from "../src/modules/stores/api-keys.ts";
import { StoreAdmin } from "../src/modules/stores/store-admin.ts";
import { effectsOf } from "../src/modules/tracking/event-effects.ts";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres-cluster.ts";
import { tempDir } from "./support/test-server.ts";

/** An analytics commit that writes nothing but what a test spreads over it. */
const NO_ANALYTICS_WRITES = {
  daily: [],
  queries: [],
  products: [],
  queryClicks: [],
  sketches: [],
  newSearches: [],
  marks: [],
  newClicks: [],
  sessions: [],
  orders: [],
  answers: [],
  seen: [],
  evidence: [],
  affinities: [],
  experimentShoppers: [],
  recommendations: NO_RECOMMENDATION_WRITES,
  prune: null,
};

/*
 * The repository conformance suite: every durable store of the service's state (SQLite, the embedded default;
 * PostgreSQL, DATABASE_URL) passes the same tests, so the service behaves the same on either. PostgreSQL runs as
 * a throwaway cluster in a temp directory (support/postgres-cluster.ts).
 */

interface Backend {
  stores: StoresRepository;
  synonyms: SynonymsRepository;
  rules: RulesRepository;
  experiments: ExperimentsRepository;
  ingest: EventIngest;
  webhooks: WebhooksRepository;
  purchaseCounts: PurchaseCounts;
  looks: LooksRepository;
  searchLog: SearchLogRepository;
  catalog: CatalogRepository;
  tasks: TasksRepository;
  enrichment: EnrichmentRepository;
  events: EventsRepository;
  analytics: AnalyticsStateRepository;
  behaviour: BehaviourRepository;
  recommendations: RecommendationsRepository;
  erasure: ShopperErasureRepository;
  trendInputs: TrendInputsRepository;
  reports: ReportsRepository;
  /** Rows of a plain SELECT (the same SQL on both), to look at what a write left. */
  rows(select: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgresCluster();
}, 60_000);
afterAll(async () => {
  await cluster.stop();
});

const BACKENDS: { name: string; open(): Promise<Backend> }[] = [
  {
    name: "SQLite",
    async open() {
      const dir = tempDir("sfs-conformance-");
      const db = openServiceDatabase(dir, { synchronous: "NORMAL" });
      return {
        stores: new SqliteStoresRepo(db),
        synonyms: new SqliteSynonymsRepo(db),
        rules: new SqliteRulesRepo(db),
        experiments: new SqliteExperimentsRepo(db),
        ingest: new SqliteEventIngest(db),
        webhooks: new SqliteWebhooksRepo(db),
        purchaseCounts: new SqlitePurchaseCounts(db),
        looks: new SqliteLooksRepo(db),
        searchLog: new SqliteSearchLogRepo(db),
        catalog: new SqliteCatalogRepo(db),
        tasks: new SqliteTasksRepo(db),
        enrichment: new SqliteEnrichmentRepo(db),
        events: new SqliteEventsRepo(db),
        analytics: new SqliteAnalyticsStateRepo(db),
        behaviour: new SqliteBehaviourRepo(db),
        recommendations: new SqliteRecommendationsRepo(db),
        erasure: new SqliteShopperErasureRepo(db),
        trendInputs: new SqliteTrendInputsRepo(db),
        reports: new SqliteReportsRepo(db),
        rows: async (select) => db.query(select).all() as Record<string, unknown>[],
        async close() {
          db.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "PostgreSQL",
    async open() {
      const sql = openPostgres(await cluster.createDatabase());
      await migratePostgres(sql);
      return {
        stores: new PostgresStoresRepo(sql),
        synonyms: new PostgresSynonymsRepo(sql),
        rules: new PostgresRulesRepo(sql),
        experiments: new PostgresExperimentsRepo(sql),
        ingest: new PostgresEventIngest(sql),
        webhooks: new PostgresWebhooksRepo(sql),
        purchaseCounts: new PostgresPurchaseCounts(sql),
        looks: new PostgresLooksRepo(sql),
        searchLog: new PostgresSearchLogRepo(sql),
        catalog: new PostgresCatalogRepo(sql),
        tasks: new PostgresTasksRepo(sql),
        enrichment: new PostgresEnrichmentRepo(sql),
        events: new PostgresEventsRepo(sql),
        analytics: new PostgresAnalyticsStateRepo(sql),
        behaviour: new PostgresBehaviourRepo(sql),
        recommendations: new PostgresRecommendationsRepo(sql),
        erasure: new PostgresShopperErasureRepo(sql),
        trendInputs: new PostgresTrendInputsRepo(sql),
        reports: new PostgresReportsRepo(sql),
        rows: async (select) => [...(await sql.unsafe(select))] as Record<string, unknown>[],
        close: () => sql.end(),
      };
    },
  },
];

const hash = (n: number) => new Uint8Array(32).fill(n);

/** `n` replicas' connection pools on one new, migrated PostgreSQL database, ended once `use` has settled. */
async function withReplicas(n: number, use: (sqls: Sql[]) => Promise<void>, opts: { max?: number } = {}): Promise<void> {
  const url = await cluster.createDatabase();
  const sqls = Array.from({ length: n }, () => openPostgres(url, opts));
  try {
    await migratePostgres(sqls[0]!);
    await use(sqls);
  } finally {
    await Promise.all(sqls.map((sql) => sql.end()));
  }
}

/** A fresh database of `backend` for each test of the describe block it is called in, with the stores `storeIds`. */
function freshBackend(backend: (typeof BACKENDS)[number], storeIds: readonly string[] = []): () => Backend {
  let b: Backend;
  beforeEach(async () => {
    b = await backend.open();
    for (const id of storeIds) await b.stores.create(id, 1);
  });
  afterEach(async () => {
    await b.close();
  });
  return () => b;
}

for (const backend of BACKENDS) {
  describe(`${backend.name}: stores and keys`, () => {
    const backendOf = freshBackend(backend);

    test("a store is created once, read back, listed by id and deleted", async () => {
      const b = backendOf();
      expect(await b.stores.create("shop-b", 2000)).toBe(true);
      expect(await b.stores.create("shop-a", 1000)).toBe(true);
      expect(await b.stores.create("shop-a", 3000)).toBe(false);
      expect(await b.stores.get("shop-a")).toEqual({ id: "shop-a", createdAt: 1000, settings: {} });
      expect(await b.stores.createdAt("shop-b")).toBe(2000);
      // Byte order on both (PostgreSQL's text keys are COLLATE "C"): capitals before small letters.
      await b.stores.create("Shop-z", 4000);
      expect((await b.stores.list()).map((s) => s.id)).toEqual(["Shop-z", "shop-a", "shop-b"]);
      await b.stores.delete("Shop-z");
      expect(await b.stores.delete("shop-a")).toBe(true);
      expect(await b.stores.delete("shop-a")).toBe(false);
      expect(await b.stores.get("shop-a")).toBeNull();
      expect(await b.stores.createdAt("shop-a")).toBeNull();
    });

    test("settings are stored as given, nested values and unicode included", async () => {
      const b = backendOf();
      await b.stores.create("s", 1);
      const settings = {
        locale: "de",
        facets: [{ key: "designer", names: { de: "Marke" } }],
        note: "Größe ✓",
        ratingPrior: { mean: 0.7, weight: 10 },
      };
      await b.stores.updateSettings("s", settings);
      expect((await b.stores.get("s"))!.settings).toEqual(settings);
    });

    test("a key is found by its hash while valid; replacing it expires the old one at the given time", async () => {
      const b = backendOf();
      await b.stores.create("s", 1);
      await b.stores.replaceKey("s", "search", hash(1), 10, 10);
      expect(await b.stores.keyByHash(hash(1), 11)).toEqual({ storeId: "s", kind: "search", keyHash: hash(1) });
      // Rotation with a grace period: both work until it ends, then only the new one.
      await b.stores.replaceKey("s", "search", hash(2), 20, 100);
      expect((await b.stores.keyByHash(hash(1), 99))?.storeId).toBe("s");
      expect(await b.stores.keyByHash(hash(1), 100)).toBeNull();
      expect((await b.stores.keyByHash(hash(2), 100))?.kind).toBe("search");
      expect((await b.stores.activeKeys("s", 50)).map((k) => k.keyHash[0]).sort()).toEqual([1, 2]);
      expect((await b.stores.activeKeys("s", 150)).map((k) => k.keyHash[0])).toEqual([2]);
      // Issued hashes include retired ones: a stale setting can never bring a key back.
      expect((await b.stores.issuedKeyHashes("s", "search")).map((h) => h[0]).sort()).toEqual([1, 2]);
      expect(await b.stores.issuedKeyHashes("s", "admin")).toEqual([]);
    });

    test("replacing at once (no grace) retires the old key of that kind only", async () => {
      const b = backendOf();
      await b.stores.create("s", 1);
      await b.stores.replaceKey("s", "admin", hash(3), 10, 10);
      await b.stores.replaceKey("s", "analytics", hash(4), 10, 10);
      await b.stores.replaceKey("s", "admin", hash(5), 20, 20);
      expect(await b.stores.keyByHash(hash(3), 21)).toBeNull();
      expect((await b.stores.keyByHash(hash(4), 21))?.kind).toBe("analytics");
      expect((await b.stores.keyByHash(hash(5), 21))?.kind).toBe("admin");
    });

    test("deleting a store deletes its keys: a store created again with the same id has none", async () => {
      const b = backendOf();
      await b.stores.create("s", 1);
      await b.stores.replaceKey("s", "admin", hash(6), 10, 10);
      await b.stores.delete("s");
      await b.stores.create("s", 50);
      expect(await b.stores.keyByHash(hash(6), 60)).toBeNull();
      expect(await b.stores.issuedKeyHashes("s", "admin")).toEqual([]);
    });

    test("a key hash that is not stored, or of another length, finds nothing", async () => {
      const b = backendOf();
      await b.stores.create("s", 1);
      await b.stores.replaceKey("s", "admin", hash(7), 10, 10);
      expect(await b.stores.keyByHash(hash(8), 11)).toBeNull();
      expect(await b.stores.keyByHash(new Uint8Array(0), 11)).toBeNull();
    });
  });
}

for (const backend of BACKENDS) {
  describe(`${backend.name}: synonym sets`, () => {
    const backendOf = freshBackend(backend, ["s", "other"]);

    test("sets are put, read back as multi-way or one-way, replaced, listed in pages by id and deleted", async () => {
      const b = backendOf();
      await b.synonyms.put(
        "s",
        [
          { id: "tee", body: { input: "tee", synonyms: ["t-shirt", "tshirt"] } },
          { id: "Jumper", body: { synonyms: ["jumper", "sweater"] } },
        ],
        5000,
      );
      expect(await b.synonyms.get("s", "tee")).toEqual({
        id: "tee",
        type: "oneWay",
        input: "tee",
        synonyms: ["t-shirt", "tshirt"],
        updatedAt: new Date(5000).toISOString(),
      });
      expect(await b.synonyms.get("s", "Jumper")).toEqual({
        id: "Jumper",
        type: "multiWay",
        synonyms: ["jumper", "sweater"],
        updatedAt: new Date(5000).toISOString(),
      });
      await b.synonyms.put("s", [{ id: "tee", body: { synonyms: ["tee", "t-shirt"] } }], 6000);
      expect(await b.synonyms.get("s", "tee")).toMatchObject({
        type: "multiWay",
        synonyms: ["tee", "t-shirt"],
        updatedAt: new Date(6000).toISOString(),
      });
      await b.synonyms.put("s", [{ id: "a-line", body: { synonyms: ["a-line", "flared"] } }], 7000);
      expect((await b.synonyms.list("s", 0, null)).map((x) => x.id)).toEqual(["Jumper", "a-line", "tee"]);
      expect((await b.synonyms.list("s", 1, 1)).map((x) => x.id)).toEqual(["a-line"]);
      expect(await b.synonyms.count("s")).toBe(3);
      expect([...(await b.synonyms.existing("s", ["tee", "nope", "Jumper"]))].sort()).toEqual(["Jumper", "tee"]);
      expect(await b.synonyms.delete("s", "tee")).toBe(true);
      expect(await b.synonyms.delete("s", "tee")).toBe(false);
      expect(await b.synonyms.get("s", "tee")).toBeNull();
    });

    test("stores are apart: one store's sets are not another's, and go with their store", async () => {
      const b = backendOf();
      await b.synonyms.put("s", [{ id: "x", body: { synonyms: ["pants", "trousers"] } }], 1);
      expect(await b.synonyms.get("other", "x")).toBeNull();
      expect(await b.synonyms.count("other")).toBe(0);
      await b.stores.delete("s");
      await b.stores.create("s", 2);
      expect(await b.synonyms.count("s")).toBe(0);
    });

    test("a put of many sets is all or none", async () => {
      const b = backendOf();
      const many = Array.from({ length: 2500 }, (_, i) => ({ id: `set-${i}`, body: { synonyms: [`word${i}`, `other${i}`] } }));
      await b.synonyms.put("s", many, 1);
      expect(await b.synonyms.count("s")).toBe(2500);
      // The last set of this put cannot be stored (no synonyms: NOT NULL): the sets before it are not kept either.
      const broken = [
        ...many.slice(0, 1500).map((set) => ({ ...set, id: `again-${set.id}` })),
        { id: "broken", body: { synonyms: undefined as unknown as string[] } },
      ];
      await expect(b.synonyms.put("s", broken, 2)).rejects.toThrow();
      expect(await b.synonyms.count("s")).toBe(2500);
      expect(await b.synonyms.get("s", "again-set-0")).toBeNull();
    });
  });
}

for (const backend of BACKENDS) {
  describe(`${backend.name}: experiments`, () => {
    const backendOf = freshBackend(backend, ["s", "t"]);

    const experiment = (id: string, status = "draft"): StoredExperiment => ({
      id,
      body: JSON.stringify({ name: id }),
      status,
      winner: null,
      createdAt: 1,
      updatedAt: 1,
      startedAt: null,
      endedAt: null,
    });

    test("experiments are put whole, read one or all by id, per store, and deleted", async () => {
      const b = backendOf();
      for (const id of ["exp_b", "exp_A", "exp_a"])
        await b.experiments.change("s", () => ({ write: { put: experiment(id) }, result: null }));
      expect((await b.experiments.all("s")).map((e) => e.id)).toEqual(["exp_A", "exp_a", "exp_b"]);
      expect(await b.experiments.all("t")).toEqual([]);
      const ended = { ...experiment("exp_b", "ended"), winner: "v2", updatedAt: 2 ** 40, startedAt: 2 ** 40 - 5, endedAt: 2 ** 40 };
      const seen = await b.experiments.change("s", (all) => ({ write: { put: ended }, result: all.length }));
      expect(seen).toBe(3);
      expect(await b.experiments.get("s", "exp_b")).toEqual(ended);
      await b.experiments.change("s", () => ({ write: { delete: "exp_a" }, result: null }));
      expect(await b.experiments.get("s", "exp_a")).toBeNull();
      expect(await b.experiments.get("t", "exp_b")).toBeNull();
    });

    test("the analytics worker's counters add up per shopper, keep flags and the last currency, and go with the experiment", async () => {
      const b = backendOf();
      await b.experiments.change("s", () => ({ write: { put: experiment("exp_x") }, result: null }));
      const delta = (over: Record<string, unknown>) => ({
        storeId: "s",
        experimentId: "exp_x",
        shopper: "u1",
        variant: 1,
        searches: 1,
        emptySearches: 0,
        clicked: 0,
        carted: 0,
        ordered: 0,
        revenue: 0,
        currency: null,
        events: 1,
        bot: 0,
        creditsA: 0,
        creditsB: 0,
        ...over,
      });
      const commit = (afterSeq: number, experimentShoppers: ReturnType<typeof delta>[]) =>
        b.analytics.commit({ ...NO_ANALYTICS_WRITES, consumer: "analytics", afterSeq, lastSeq: afterSeq + 1, experimentShoppers });
      expect(await commit(0, [delta({ clicked: 1, currency: "EUR", revenue: 12.5 }), delta({ shopper: "u2", variant: 0 })])).toBe(true);
      expect(await commit(1, [delta({ searches: 2, events: 3, revenue: 7.5, creditsB: 2 })])).toBe(true);
      const rows = (await b.experiments.shoppers("s", "exp_x")).sort((x, y) => x.variant - y.variant);
      expect(rows).toEqual([
        {
          variant: 0,
          searches: 1,
          emptySearches: 0,
          clicked: 0,
          carted: 0,
          ordered: 0,
          revenue: 0,
          currency: null,
          events: 1,
          bot: 0,
          creditsA: 0,
          creditsB: 0,
        },
        {
          variant: 1,
          searches: 3,
          emptySearches: 0,
          clicked: 1,
          carted: 0,
          ordered: 0,
          revenue: 20,
          currency: "EUR",
          events: 4,
          bot: 0,
          creditsA: 0,
          creditsB: 2,
        },
      ]);
      await b.experiments.change("s", () => ({ write: { delete: "exp_x" }, result: null }));
      expect(await b.experiments.shoppers("s", "exp_x")).toEqual([]);
    });

    test("a change that throws writes nothing", async () => {
      const b = backendOf();
      await expect(
        b.experiments.change("s", () => {
          throw new Error("refused");
        }),
      ).rejects.toThrow("refused");
      expect(await b.experiments.all("s")).toEqual([]);
    });

    test("changes racing on one store see each other: of six starts checking that none runs, one wins", async () => {
      const b = backendOf();
      for (let i = 0; i < 6; i++) await b.experiments.change("s", () => ({ write: { put: experiment(`exp_${i}`) }, result: null }));
      const started = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          b.experiments.change("s", (all) =>
            all.some((e) => e.status === "running")
              ? { write: null, result: false }
              : { write: { put: experiment(`exp_${i}`, "running") }, result: true },
          ),
        ),
      );
      expect(started.filter(Boolean).length).toBe(1);
      expect((await b.experiments.all("s")).filter((e) => e.status === "running").length).toBe(1);
    });
  });
}

for (const backend of BACKENDS) {
  describe(`${backend.name}: query rules`, () => {
    const backendOf = freshBackend(backend, ["s"]);

    const rule = (n: number) =>
      JSON.stringify({ conditions: [{ pattern: `q${n}`, anchoring: "is" }], consequence: { hide: [`p${n}`] }, enabled: true });

    test("rules are written, replaced, read whole or in pages by id, counted and deleted", async () => {
      const b = backendOf();
      expect(
        await b.rules.putAll(
          "s",
          [
            { id: "b", rule: rule(1) },
            { id: "A", rule: rule(2) },
          ],
          100,
          10,
        ),
      ).toEqual(new Set());
      expect(await b.rules.get("s", "b")).toEqual({ id: "b", rule: rule(1), updatedAt: 100 });
      await b.rules.putAll("s", [{ id: "b", rule: rule(3) }], 200, 10);
      expect(await b.rules.get("s", "b")).toEqual({ id: "b", rule: rule(3), updatedAt: 200 });
      await b.rules.putAll("s", [{ id: "a", rule: rule(4) }], 300, 10);
      expect((await b.rules.all("s")).map((r) => r.id)).toEqual(["A", "a", "b"]);
      expect((await b.rules.page("s", 1, 1)).map((r) => r.id)).toEqual(["a"]);
      expect(await b.rules.count("s")).toBe(3);
      expect(await b.rules.delete("s", "a")).toBe(true);
      expect(await b.rules.delete("s", "a")).toBe(false);
      expect(await b.rules.get("s", "a")).toBeNull();
    });

    test("the store's bound: new rules past it are refused and returned, replacements always pass", async () => {
      const b = backendOf();
      await b.rules.putAll(
        "s",
        [
          { id: "r1", rule: rule(1) },
          { id: "r2", rule: rule(2) },
        ],
        1,
        3,
      );
      const refused = await b.rules.putAll(
        "s",
        [
          { id: "r1", rule: rule(5) },
          { id: "r3", rule: rule(3) },
          { id: "r4", rule: rule(4) },
          { id: "r3", rule: rule(6) },
        ],
        2,
        3,
      );
      expect(refused).toEqual(new Set(["r4"]));
      expect(await b.rules.count("s")).toBe(3);
      expect((await b.rules.get("s", "r1"))!.rule).toBe(rule(5));
      expect((await b.rules.get("s", "r3"))!.rule).toBe(rule(6));
    });

    test("writers racing for the last places never push the store past its bound", async () => {
      const b = backendOf();
      await b.rules.putAll(
        "s",
        Array.from({ length: 8 }, (_, i) => ({ id: `base-${i}`, rule: rule(i) })),
        1,
        10,
      );
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => b.rules.putAll("s", [{ id: `racer-${i}`, rule: rule(i) }], 2, 10)),
      );
      expect(results.filter((r) => r.size === 0).length).toBe(2);
      expect(await b.rules.count("s")).toBe(10);
    });
  });
}

for (const backend of BACKENDS) {
  describe(`${backend.name}: event ingest`, () => {
    const backendOf = freshBackend(backend, ["s"]);
    let clock = Date.UTC(2026, 10, 26, 12);
    const event = (type: string, data: Record<string, unknown>, who: { userId?: string; sessionId?: string } = {}): NewEvent => ({
      storeId: "s",
      type,
      userId: who.userId ?? null,
      sessionId: who.sessionId ?? null,
      apiVersion: "1.9",
      data,
      receivedAt: clock,
    });
    const commit = (b: Backend, events: NewEvent[]) => b.ingest.commit(events, effectsOf(events));
    const order = (orderId: string, ids: string[], who: { userId?: string; sessionId?: string }) =>
      event("Purchase", { orderId, products: ids.map((id) => ({ id, price: 10 })) }, who);

    test("events are stored in order with their data; an order counts its purchases and pairs once", async () => {
      const b = backendOf();
      const changed = await commit(b, [
        event("SiteView", { url: "/" }, { sessionId: "v1" }),
        order("o-1", ["jacket", "scarf", "jacket"], { userId: "u1" }),
        event("OrderComplete", { orderId: "o-1", products: [{ id: "jacket", price: 10 }] }, { userId: "u1" }),
      ]);
      expect(changed).toEqual([
        ["s", ["jacket", "scarf"]],
        ["s", []],
      ]);
      const stored = await b.rows("SELECT type, user_id, session_id, received_at, data FROM events ORDER BY seq");
      expect(stored.map((r) => r.type)).toEqual(["SiteView", "Purchase", "OrderComplete"]);
      expect(stored[0]).toMatchObject({ user_id: null, session_id: "v1", received_at: clock });
      expect(JSON.parse(stored[0]!.data as string)).toEqual({ url: "/" });
      // The same buyer's second line of a product that day does not count again; a pair is one row per direction.
      expect(await b.rows("SELECT product_id, purchases FROM product_signals ORDER BY product_id")).toEqual([
        { product_id: "jacket", purchases: 1 },
        { product_id: "scarf", purchases: 1 },
      ]);
      expect(await b.rows("SELECT product_id, other_id, evidence FROM look_pairs ORDER BY product_id")).toEqual([
        { product_id: "jacket", other_id: "scarf", evidence: 1 },
        { product_id: "scarf", other_id: "jacket", evidence: 1 },
      ]);
    });

    test("one buyer counts a product once a day, whatever the orders; another day or buyer counts again", async () => {
      const b = backendOf();
      await commit(b, [
        order("o-1", ["coat"], { userId: "u1" }),
        order("o-2", ["coat"], { userId: "u1" }),
        order("o-3", ["coat"], { sessionId: "guest" }),
      ]);
      clock += 86_400_000;
      const changed = await commit(b, [order("o-4", ["coat"], { userId: "u1" })]);
      expect(changed).toEqual([["s", ["coat"]]]);
      expect(await b.rows("SELECT purchases FROM product_signals")).toEqual([{ purchases: 3 }]);
      expect(await b.purchaseCounts.purchases("s", ["coat", "never-bought"])).toEqual(new Map([["coat", 3]]));
      expect(await b.purchaseCounts.all()).toEqual([{ storeId: "s", productId: "coat", purchases: 3 }]);
      expect(await b.purchaseCounts.all("elsewhere")).toEqual([]);
    });

    test("a look click counts once per session and pair, and not without a session or on the product itself", async () => {
      const b = backendOf();
      const click = (base: string, clicked: string, who: { sessionId?: string }) =>
        event("CTLProductClick", { baseProductId: base, selectedProduct: { productId: clicked } }, who);
      await commit(b, [
        click("dress", "belt", { sessionId: "a" }),
        click("dress", "belt", { sessionId: "a" }),
        click("dress", "belt", {}),
        click("dress", "dress", { sessionId: "a" }),
      ]);
      await commit(b, [click("dress", "belt", { sessionId: "b" })]);
      expect(await b.rows("SELECT product_id, other_id, evidence FROM look_pairs ORDER BY product_id")).toEqual([
        { product_id: "belt", other_id: "dress", evidence: 0.6 },
        { product_id: "dress", other_id: "belt", evidence: 0.6 },
      ]);
      expect(await b.rows("SELECT count(*) AS n FROM events")).toEqual([{ n: 5 }]);
      expect(await b.looks.partners("s", "dress")).toEqual(new Map([["belt", 0.6]]));
      expect(await b.looks.partners("s", "hat")).toEqual(new Map());
    });

    test("a batch is all or nothing: an event that cannot be stored leaves no event and no count behind", async () => {
      const b = backendOf();
      const broken = { ...event("SiteView", {}), storeId: "no-such-store" };
      await expect(commit(b, [order("o-9", ["hat"], { userId: "u9" }), broken])).rejects.toThrow();
      expect(await b.rows("SELECT count(*) AS n FROM events")).toEqual([{ n: 0 }]);
      expect(await b.rows("SELECT count(*) AS n FROM counted_orders")).toEqual([{ n: 0 }]);
      // The order was not counted, so it counts when it comes again.
      expect(await commit(b, [order("o-9", ["hat"], { userId: "u9" })])).toEqual([["s", ["hat"]]]);
    });
  });
}

for (const backend of BACKENDS) {
  describe(`${backend.name}: search log and query statistics`, () => {
    const backendOf = freshBackend(backend, ["s", "other"]);
    const search = (query: string | null, over: Partial<SearchLogEntry> = {}): SearchLogEntry => ({
      storeId: "s",
      at: 1_000,
      query,
      collection: null,
      resultCount: 12,
      fallback: false,
      filtered: false,
      teaches: true,
      userId: null,
      sessionId: "session-1",
      preprod: false,
      ...over,
    });

    test("a query becomes popular only once enough distinct shoppers searched it; its shoppers are then forgotten", async () => {
      const b = backendOf();
      await b.searchLog.append(
        [search("jeans"), search("jeans"), search("jeans", { sessionId: "session-2" }), search(null, { collection: "sale" })],
        3,
      );
      expect(await b.searchLog.count("s")).toBe(4);
      expect(await b.searchLog.popularQueries("s", 3, 10)).toEqual([]);
      expect(await b.rows("SELECT count(*) AS n FROM query_shoppers")).toEqual([{ n: 2 }]);
      await b.searchLog.append([search("jeans", { userId: "u3", sessionId: "session-3" })], 3);
      expect(await b.searchLog.popularQueries("s", 3, 10)).toEqual([{ query: "jeans", searches: 4, resultCount: 12 }]);
      expect(await b.rows("SELECT count(*) AS n FROM query_shoppers")).toEqual([{ n: 0 }]);
      expect(await b.searchLog.popularQueries("other", 1, 10)).toEqual([]);
    });

    test("result counts: an unfiltered search sets it, a filtered one only raises it; misspelled or zero-result queries teach nothing", async () => {
      const b = backendOf();
      await b.searchLog.append(
        [search("kurta", { resultCount: 40, userId: "a" }), search("kurta", { resultCount: 5, filtered: true, userId: "b" })],
        1,
      );
      expect((await b.searchLog.popularQueries("s", 1, 10))[0]).toMatchObject({ query: "kurta", resultCount: 40 });
      await b.searchLog.append(
        [search("kurta", { resultCount: 30, userId: "c" }), search("kurtta", { teaches: false }), search("zzz", { resultCount: 0 })],
        1,
      );
      expect(await b.searchLog.popularQueries("s", 1, 10)).toEqual([{ query: "kurta", searches: 3, resultCount: 30 }]);
    });

    test("imports are idempotent and rank by searches, then text; a preprod search keeps our first page", async () => {
      const b = backendOf();
      const past = [
        { query: "shirt", searches: 50, resultCount: 9 },
        { query: "Shorts", searches: 50, resultCount: 4 },
        { query: "socks", searches: 80, resultCount: 2 },
      ];
      await b.searchLog.importQueries("s", past, 5);
      await b.searchLog.importQueries("s", past, 6);
      expect((await b.searchLog.popularQueries("s", 3, 10)).map((q) => [q.query, q.searches])).toEqual([
        ["socks", 80],
        ["Shorts", 50],
        ["shirt", 50],
      ]);
      expect((await b.searchLog.popularQueries("s", 3, 2)).map((q) => q.query)).toEqual(["socks", "Shorts"]);
      await b.searchLog.append(
        [search("shirt", { preprod: true, teaches: false, shadowAnswer: { total: 9, productIds: ["p1", "p2"] } })],
        3,
      );
      expect(await b.rows("SELECT source, query, total, product_ids FROM query_answers")).toEqual([
        { source: "ours", query: "shirt", total: 9, product_ids: '["p1","p2"]' },
      ]);
    });

    test("an import's categories are kept as the query's evidence, most searched first; a later import without them keeps them", async () => {
      const b = backendOf();
      await b.searchLog.importQueries(
        "s",
        [
          { query: "moncler", searches: 5, resultCount: 0, ledTo: ["Men > Clothing", "Women > Clothing"] },
          { query: "liu jo", searches: 9, resultCount: 0, ledTo: ["Women > Bags"] },
          { query: "shirt", searches: 50, resultCount: 9 },
        ],
        5,
      );
      await b.searchLog.importQueries("s", [{ query: "moncler", searches: 6, resultCount: 0 }], 6);
      expect(await b.searchLog.queryEvidence("s", 10)).toEqual([
        { query: "liu jo", searches: 9, ledTo: ["Women > Bags"] },
        { query: "moncler", searches: 6, ledTo: ["Men > Clothing", "Women > Clothing"] },
      ]);
      expect(await b.searchLog.queryEvidence("s", 1)).toHaveLength(1);
      expect(await b.searchLog.queryEvidence("other", 10)).toEqual([]);
    });

    test("retention deletes old log rows oldest first, in chunks, and the shopper hashes from then; statistics stay", async () => {
      const b = backendOf();
      await b.searchLog.append(
        [1, 2, 3, 4].map((n) => search("dress", { at: n * 100, sessionId: `s${n}` })),
        10,
      );
      expect(await b.searchLog.deleteBefore("s", 350, 2)).toBe(2);
      expect(await b.searchLog.deleteBefore("s", 350, 2)).toBe(1);
      expect(await b.searchLog.deleteBefore("s", 350, 2)).toBe(0);
      expect(await b.searchLog.count("s")).toBe(1);
      expect(await b.rows("SELECT at FROM query_shoppers")).toEqual([{ at: 400 }]);
      expect(await b.rows("SELECT searches FROM query_stats")).toEqual([{ searches: 4 }]);
    });
  });
}

for (const backend of BACKENDS) {
  describe(`${backend.name}: curated looks`, () => {
    const backendOf = freshBackend(backend, ["s", "other"]);

    test("a product's curated looks are put, replaced, read back in order and deleted, per store", async () => {
      const b = backendOf();
      expect(await b.looks.pinned("s", "dress")).toBeNull();
      await b.looks.putPinned("s", "dress", [["belt", "bag"], ["heels"]], 10);
      await b.looks.putPinned("s", "dress", [["scarf", "belt"]], 20);
      expect(await b.looks.pinned("s", "dress")).toEqual([["scarf", "belt"]]);
      expect(await b.looks.pinned("other", "dress")).toBeNull();
      expect(await b.looks.deletePinned("s", "dress")).toBe(true);
      expect(await b.looks.deletePinned("s", "dress")).toBe(false);
      expect(await b.looks.pinned("s", "dress")).toBeNull();
    });
  });
}

for (const backend of BACKENDS) {
  describe(`${backend.name}: webhook subscriptions and outbox`, () => {
    const backendOf = freshBackend(backend, ["s1", "s2"]);
    const item = { storeId: "s1", productId: "p1", productVersion: 2, stage: "text", body: '{"productId":"p1"}', now: 1_000 };
    const sub = (b: Backend, id: string, storeId = "s1") =>
      b.webhooks.createSubscriptionWithin({ id, storeId, url: "https://8.8.8.8/", topic: "tags", secret: "x", createdAt: 0 }, 3);
    const failed = (at: number, nextAttemptAt: number) =>
      [
        { at, status: 500, durationMs: 1, error: "HTTP 500" },
        { status: "failed" as const, nextAttemptAt, finishedAt: null },
      ] as const;

    test("subscriptions: created within the store's bound, listed, read, re-keyed and deleted", async () => {
      const b = backendOf();
      for (const id of ["wh_a", "wh_b", "wh_c"]) expect(await sub(b, id)).toBe(true);
      expect(await sub(b, "wh_d")).toBe(false);
      expect(await sub(b, "wh_other", "s2")).toBe(true);
      expect((await b.webhooks.subscriptions("s1")).map((x) => x.id)).toEqual(["wh_a", "wh_b", "wh_c"]);
      expect(await b.webhooks.setSecret("s1", "wh_a", "new")).toBe(true);
      expect((await b.webhooks.subscription("s1", "wh_a"))?.secret).toBe("new");
      expect(await b.webhooks.subscription("s2", "wh_a")).toBeNull();
      expect(await b.webhooks.deleteSubscription("s1", "wh_c", 5)).toBe(true);
      expect(await b.webhooks.deleteSubscription("s1", "wh_c", 5)).toBe(false);
      expect((await b.webhooks.activeSubscriptions()).map((x) => x.id).sort()).toEqual(["wh_a", "wh_b", "wh_other"]);
      expect(await sub(b, "wh_e")).toBe(true);
    });

    test("a delivery is queued per live subscription, claimed once with its attempt's number, and settled once", async () => {
      const b = backendOf();
      await sub(b, "wh_a");
      await sub(b, "wh_gone");
      await b.webhooks.deleteSubscription("s1", "wh_gone", 0);
      expect(await b.webhooks.enqueue(item)).toBe(1);
      expect(await b.webhooks.enqueue({ ...item, productId: "p2", now: 1_001 })).toBe(1);
      expect(await b.webhooks.enqueue({ ...item, storeId: "s2" })).toBe(0);
      expect(await b.webhooks.earliestDue("wh_a")).toBe(1_000);
      expect(await b.webhooks.claimDue("wh_a", 999, 10)).toEqual([]);
      const [d] = await b.webhooks.claimDue("wh_a", 1_000, 1);
      expect(d).toMatchObject({ productId: "p1", inFlight: 1, inFlightAt: 1_000, nextAttemptAt: null, status: "pending" });
      expect((await b.webhooks.claimDue("wh_a", 2_000, 10)).map((r) => r.productId)).toEqual(["p2"]);
      expect(await b.webhooks.claimDue("wh_a", 2_000, 10)).toEqual([]);
      expect((await b.webhooks.inFlight(Infinity)).map((r) => r.productId).sort()).toEqual(["p1", "p2"]);
      expect((await b.webhooks.inFlight(1_500)).map((r) => r.productId)).toEqual(["p1"]);
      expect(await b.webhooks.redeliver("wh_a", d!.id, 1_000)).toBe("in_flight");
      expect(await b.webhooks.finishAttempt(d!.id, 1, ...failed(1_000, 31_000))).toBe(true);
      expect(await b.webhooks.finishAttempt(d!.id, 1, ...failed(1_000, 31_000))).toBe(false);
      expect(await b.webhooks.delivery("wh_a", d!.id)).toMatchObject({
        status: "failed",
        roundAttempts: 1,
        nextAttemptAt: 31_000,
        inFlight: null,
      });
      // The next attempt is number 2.
      expect((await b.webhooks.claimDue("wh_a", 31_000, 10)).map((r) => r.inFlight)).toEqual([2]);
    });

    test("a deleted subscription gives up its waiting deliveries; the one in flight ends dead instead of retried", async () => {
      const b = backendOf();
      await sub(b, "wh_a");
      await b.webhooks.enqueue(item);
      await b.webhooks.enqueue({ ...item, productId: "p2" });
      const [d] = await b.webhooks.claimDue("wh_a", 1_000, 1);
      await b.webhooks.deleteSubscription("s1", "wh_a", 2_000);
      expect(await b.webhooks.claimDue("wh_a", 10_000, 10)).toEqual([]);
      expect((await b.webhooks.deliveries("wh_a", { productId: "p2", limit: 1 }))[0]).toMatchObject({
        status: "dead",
        nextAttemptAt: null,
      });
      expect(await b.webhooks.finishAttempt(d!.id, 1, ...failed(1_000, 31_000))).toBe(true);
      expect(await b.webhooks.delivery("wh_a", d!.id)).toMatchObject({ status: "dead", nextAttemptAt: null, inFlight: null });
    });

    test(`a delivery keeps its last ${MAX_KEPT_ATTEMPTS} attempts; listing pages by seq and filters; finished ones are pruned`, async () => {
      const b = backendOf();
      await sub(b, "wh_a");
      await b.webhooks.enqueue(item);
      await b.webhooks.enqueue({ ...item, productId: "p2" });
      const id = (await b.webhooks.deliveries("wh_a", { productId: "p1", limit: 1 }))[0]!.id;
      for (let n = 1; n <= MAX_KEPT_ATTEMPTS + 5; n++) {
        if (n > 1 && n % MAX_ATTEMPTS === 1) expect(await b.webhooks.redeliver("wh_a", id, n)).not.toBeNull();
        const [claimed] = (await b.webhooks.claimDue("wh_a", n + 1_000, 10)).filter((r) => r.id === id);
        expect(claimed?.inFlight).toBe(((n - 1) % MAX_ATTEMPTS) + 1);
        await b.webhooks.finishAttempt(id, claimed!.inFlight!, ...failed(n, n));
      }
      const attempts = (await b.webhooks.delivery("wh_a", id))!.attempts;
      expect(attempts).toHaveLength(MAX_KEPT_ATTEMPTS);
      expect(attempts[0]!.at).toBe(6);
      const all = await b.webhooks.deliveries("wh_a", { limit: 10 });
      expect(all.map((r) => r.productId)).toEqual(["p2", "p1"]);
      expect((await b.webhooks.deliveries("wh_a", { beforeSeq: all[0]!.seq, limit: 10 })).map((r) => r.productId)).toEqual(["p1"]);
      expect((await b.webhooks.deliveries("wh_a", { status: "failed", limit: 10 })).map((r) => r.productId)).toEqual(["p1"]);

      await b.rows("UPDATE webhook_deliveries SET status = 'dead', next_attempt_at = NULL, finished_at = 500");
      expect(await b.webhooks.pruneFinished(400, 100)).toBe(0);
      expect(await b.webhooks.pruneFinished(600, 1)).toBe(1);
      expect(await b.webhooks.pruneFinished(600, 100)).toBe(1);
      expect(await b.webhooks.delivery("wh_a", id)).toBeNull();
    });
  });
}

for (const backend of BACKENDS) {
  describe(`${backend.name}: the indexing queue and the catalog`, () => {
    const backendOf = freshBackend(backend, ["s", "t"]);
    const live = (id: string, version: number, hash = `h${version}`): CommittedProduct => ({
      id,
      version,
      contentHash: hash,
      deleted: false,
      doc: JSON.stringify({ id, name: `Product ${id} ✓` }),
    });
    const gone = (id: string, version: number): CommittedProduct => ({ id, version, contentHash: null, deleted: true, doc: null });
    const task = (b: Backend, id: string, storeId: string, itemCount: number, now = 1) =>
      b.tasks.insert({
        id,
        storeId,
        kind: "upsert",
        payload: `[${"0,".repeat(itemCount - 1)}0]`,
        itemCount,
        now,
        report: { warnings: 2, rejectedCount: 1, rejected: '[{"index":3}]' },
      });

    test("tasks are kept in the order acknowledged, with their payload and report; heads are each store's oldest", async () => {
      const b = backendOf();
      await task(b, "a", "s", 5);
      await task(b, "b", "t", 3);
      await task(b, "c", "s", 2);
      const a = (await b.tasks.get("s", "a"))!;
      expect(a).toMatchObject({
        id: "a",
        storeId: "s",
        kind: "upsert",
        status: "pending",
        itemCount: 5,
        cursor: 0,
        attempts: 0,
        nextRunAt: 0,
        message: null,
        createdAt: 1,
      });
      expect(a.report).toEqual({ warnings: 2, rejectedCount: 1, rejected: '[{"index":3}]' });
      // Another store's task is not found through this one.
      expect(await b.tasks.get("t", "a")).toBeNull();
      expect(JSON.parse(await b.tasks.payload(a.seq))).toHaveLength(5);
      expect((await b.tasks.pendingHeads()).map((t) => t.id).sort()).toEqual(["a", "b"]);
      expect((await b.tasks.pendingOf("s", 10)).map((t) => t.id)).toEqual(["a", "c"]);
      expect((await b.tasks.pendingOf("s", 1)).map((t) => t.id)).toEqual(["a"]);
      expect(await b.tasks.pendingItemCount()).toBe(10);
    });

    test("a batch commits products, enrichment and progress at once and drops the shapes of what it deletes; a finished task drops its payload", async () => {
      const b = backendOf();
      await task(b, "a", "s", 3);
      await task(b, "c", "s", 2);
      const [a, c] = await b.tasks.pendingOf("s", 2);
      expect(
        await b.tasks.commitBatch({
          storeId: "s",
          at: 10,
          products: [live("p1", 1), live("p2", 1)],
          advances: [{ seq: a!.seq, from: 0, to: 2, itemCount: 3 }],
        }),
      ).toBe(true);
      await b.catalog.putShapes("s", "k1", [
        ["p1", 1, '{"productId":"p1"}'],
        ["p2", 1, '{"productId":"p2"}'],
      ]);
      expect(
        await b.tasks.commitBatch({
          storeId: "s",
          at: 20,
          products: [live("p3", 1), gone("p1", 2)],
          advances: [
            { seq: a!.seq, from: 2, to: 3, itemCount: 3 },
            { seq: c!.seq, from: 0, to: 1, itemCount: 2 },
          ],
        }),
      ).toBe(true);
      expect(await b.tasks.get("s", "a")).toMatchObject({ status: "complete", cursor: 3, updatedAt: 20 });
      expect(await b.tasks.get("s", "c")).toMatchObject({ status: "pending", cursor: 1 });
      expect(await b.tasks.pendingItemCount()).toBe(1);
      expect(await b.rows(`SELECT seq FROM task_payloads ORDER BY seq`)).toEqual([{ seq: c!.seq }]);
      expect(await b.catalog.get("s", "p1")).toEqual({ version: 2, contentHash: null, deleted: true, doc: null, updatedAt: 20 });
      expect(await b.catalog.get("s", "p2")).toEqual({
        version: 1,
        contentHash: "h1",
        deleted: false,
        doc: JSON.stringify({ id: "p2", name: "Product p2 ✓" }),
        updatedAt: 10,
      });
      expect(await b.catalog.get("t", "p2")).toBeNull();
      expect(await b.catalog.states("s", ["p1", "p3", "nope"])).toEqual(
        new Map([
          ["p1", { version: 2, contentHash: null, deleted: true }],
          ["p3", { version: 1, contentHash: "h1", deleted: false }],
        ]),
      );
      expect(await b.catalog.countLive("s")).toBe(2);
      // Live documents only: a deleted product has none.
      expect(await b.catalog.liveDocs("s", ["p1", "p2", "nope"])).toEqual(
        new Map([["p2", JSON.stringify({ id: "p2", name: "Product p2 ✓" })]]),
      );
      // A deleted product has no shape and no enrichment left; a changed one has its text stage queued.
      expect(await b.catalog.shaped("s", ["p1", "p2", "p3"], "k1")).toEqual(new Map([["p2", '{"productId":"p2"}']]));
      expect(
        await b.rows("SELECT product_id, product_version, stage, attempts, next_run_at FROM enrichment_jobs ORDER BY product_id"),
      ).toEqual([
        { product_id: "p2", product_version: 1, stage: "text", attempts: 0, next_run_at: 10 },
        { product_id: "p3", product_version: 1, stage: "text", attempts: 0, next_run_at: 20 },
      ]);
      expect(await b.catalog.changedSince("s", 20)).toEqual([
        { id: "p1", version: 2, doc: null },
        { id: "p3", version: 1, doc: JSON.stringify({ id: "p3", name: "Product p3 ✓" }) },
      ]);
    });

    test("a batch whose task moved on meanwhile, or ended, is refused whole: nothing of it is written", async () => {
      const b = backendOf();
      await task(b, "a", "s", 4);
      await task(b, "c", "s", 4);
      const [a, c] = await b.tasks.pendingOf("s", 2);
      expect(
        await b.tasks.commitBatch({
          storeId: "s",
          at: 10,
          products: [live("p1", 1)],
          advances: [{ seq: a!.seq, from: 0, to: 2, itemCount: 4 }],
        }),
      ).toBe(true);
      // The same slice again (another replica's copy of it): its task's cursor is no longer 0.
      const again = {
        storeId: "s",
        at: 11,
        products: [live("p1", 2, "other"), live("p9", 1)],
        advances: [
          { seq: c!.seq, from: 0, to: 1, itemCount: 4 },
          { seq: a!.seq, from: 0, to: 2, itemCount: 4 },
        ],
      };
      expect(await b.tasks.commitBatch(again)).toBe(false);
      expect((await b.catalog.get("s", "p1"))?.version).toBe(1);
      expect(await b.catalog.get("s", "p9")).toBeNull();
      expect((await b.tasks.get("s", "c"))?.cursor).toBe(0);
      await b.tasks.fail([c!.seq], "refused", 12);
      expect(
        await b.tasks.commitBatch({
          storeId: "s",
          at: 13,
          products: [live("p9", 1)],
          advances: [{ seq: c!.seq, from: 0, to: 1, itemCount: 4 }],
        }),
      ).toBe(false);
      expect(await b.tasks.get("s", "c")).toMatchObject({ status: "error", message: "refused", updatedAt: 12 });
    });

    test("a retry is recorded; failing ends tasks in error and drops their payloads", async () => {
      const b = backendOf();
      await task(b, "a", "s", 1);
      await task(b, "c", "s", 1);
      const [a, c] = await b.tasks.pendingOf("s", 2);
      await b.tasks.retryLater(a!.seq, 1, 500, "engine down", 5);
      expect(await b.tasks.get("s", "a")).toMatchObject({
        status: "pending",
        attempts: 1,
        nextRunAt: 500,
        message: "engine down",
        updatedAt: 5,
      });
      await b.tasks.fail([a!.seq, c!.seq], "Search engine rejected the update", 6);
      expect(await b.tasks.pendingHeads()).toEqual([]);
      expect(await b.tasks.pendingItemCount()).toBe(0);
      expect(await b.rows("SELECT seq FROM task_payloads")).toEqual([]);
    });

    test("one batch mixes new, changed, re-added and deleted products in any order: each row and each enrichment job as committed", async () => {
      const b = backendOf();
      const ids = Array.from({ length: 1500 }, (_, i) => `p${(i * 7919) % 1500}`);
      await b.tasks.commitBatch({ storeId: "s", at: 1, products: ids.map((id) => live(id, 1)), advances: [] });
      await b.tasks.commitBatch({ storeId: "s", at: 2, products: ids.slice(0, 100).map((id) => gone(id, 2)), advances: [] });
      // Re-added after a deletion (its row a tombstone), changed, deleted and new, interleaved.
      const kinds = [
        ...ids.slice(0, 50).map((id) => live(id, 3, "again")),
        ...ids.slice(100, 300).map((id) => live(id, 2, "changed")),
        ...ids.slice(300, 350).map((id) => gone(id, 2)),
        ...Array.from({ length: 500 }, (_, i) => live(`n${i}`, 1)),
      ];
      const next = kinds.map((_, i) => kinds[(i * 7919) % kinds.length]!);
      expect(await b.tasks.commitBatch({ storeId: "s", at: 3, products: next, advances: [] })).toBe(true);
      const states = await b.catalog.states("s", [...ids, ...next.map((p) => p.id)]);
      expect(states.get(ids[0]!)).toEqual({ version: 3, contentHash: "again", deleted: false });
      expect(states.get(ids[60]!)).toEqual({ version: 2, contentHash: null, deleted: true });
      expect(states.get(ids[100]!)).toEqual({ version: 2, contentHash: "changed", deleted: false });
      expect(states.get(ids[300]!)).toEqual({ version: 2, contentHash: null, deleted: true });
      expect(states.get(ids[1499]!)).toEqual({ version: 1, contentHash: "h1", deleted: false });
      expect(states.get("n499")).toEqual({ version: 1, contentHash: "h1", deleted: false });
      expect(await b.catalog.countLive("s")).toBe(1500 - 100 + 50 - 50 + 500);
      const jobs = (await b.rows("SELECT product_id, product_version FROM enrichment_jobs")) as {
        product_id: string;
        product_version: number;
      }[];
      const versions = new Map(jobs.map((j) => [j.product_id, Number(j.product_version)]));
      expect(versions.size).toBe(1500 - 100 + 50 - 50 + 500);
      expect([versions.get(ids[0]!), versions.get(ids[60]!), versions.get(ids[100]!), versions.get(ids[300]!), versions.get("n0")]).toEqual(
        [3, undefined, 2, undefined, 1],
      );
    });

    test("the word fields of live products are read a page at a time in byte order, nothing else of them", async () => {
      const b = backendOf();
      const full = {
        id: "b",
        name: "Linen shirt ✓",
        brand: "Maison",
        categories: ["Women", "Shirts"],
        gender: "Women",
        ageGroup: "Adults",
        description: "not a word field",
        price: 49.5,
        variations: [{ id: "v1", name: "Sand", swatch: "https://example.com/s.png" }, { id: "v2" }],
        tags: ["usage:office", "summer"],
      };
      const bare = { id: "a", name: "Plain" };
      await b.tasks.commitBatch({
        storeId: "s",
        at: 1,
        products: [
          { id: "b", version: 1, contentHash: "h", deleted: false, doc: JSON.stringify(full) },
          { id: "a", version: 1, contentHash: "h", deleted: false, doc: JSON.stringify(bare) },
          live("c", 1),
          gone("x", 2),
        ],
        advances: [],
      });
      const first = await b.catalog.liveWordFieldsAfter("s", "", 2);
      expect(first).toEqual([
        { id: "a", fields: { name: "Plain", variations: [] } },
        {
          id: "b",
          fields: {
            name: "Linen shirt ✓",
            brand: "Maison",
            categories: ["Women", "Shirts"],
            gender: "Women",
            ageGroup: "Adults",
            variations: [{ name: "Sand" }, {}],
            tags: ["usage:office", "summer"],
          },
        },
      ]);
      expect(await b.catalog.liveWordFieldsAfter("s", "b", 2)).toEqual([{ id: "c", fields: { name: "Product c ✓", variations: [] } }]);
      expect(await b.catalog.liveWordFieldsAfter("other", "", 2)).toEqual([]);
    });

    test("word fields holding a NUL or a lone surrogate are read as written (PostgreSQL's jsonb refuses both)", async () => {
      const b = backendOf();
      const odd = {
        id: "a",
        name: "Nul\u0000 inside",
        brand: "Half \ud800 pair",
        categories: ["Tab\tbed"],
        variations: [{ id: "v1", name: "Low \udc00" }, { id: "v2" }],
      };
      await b.tasks.commitBatch({
        storeId: "s",
        at: 1,
        products: [{ id: "a", version: 1, contentHash: "h", deleted: false, doc: JSON.stringify(odd) }, live("b", 1)],
        advances: [],
      });
      expect(await b.catalog.liveWordFieldsAfter("s", "", 10)).toEqual([
        {
          id: "a",
          fields: {
            name: "Nul\u0000 inside",
            brand: "Half \ud800 pair",
            categories: ["Tab\tbed"],
            variations: [{ name: "Low \udc00" }, {}],
          },
        },
        { id: "b", fields: { name: "Product b ✓", variations: [] } },
      ]);
    });

    test("live products are read a page at a time in byte order; shapes are stored for the version they were made from", async () => {
      const b = backendOf();
      const ids = ["b", "B", "a-2", "a", "é", "Z"];
      await b.tasks.commitBatch({ storeId: "s", at: 1, products: [...ids.map((id) => live(id, 1)), gone("x", 2)], advances: [] });
      const seen: string[] = [];
      for (let after = ""; ; ) {
        const rows = await b.catalog.liveProductsAfter("s", after, 4);
        seen.push(...rows.map((r) => r.id));
        expect(rows.every((r) => r.version === 1 && JSON.parse(r.doc).id === r.id)).toBe(true);
        if (rows.length < 4) break;
        after = rows.at(-1)!.id;
      }
      expect(seen).toEqual(["B", "Z", "a", "a-2", "b", "é"]);
      await b.catalog.putShapes("s", "k1", [["B", 1, "B1"]]);
      // A deleted product gets none.
      await b.catalog.putShapes("s", "k2", [
        ["a", 1, "A2"],
        ["b", 1, "B2"],
        ["x", 2, "X"],
      ]);
      expect(await b.catalog.shaped("s", ["a", "b", "B", "x"], "k2")).toEqual(
        new Map([
          ["a", "A2"],
          ["b", "B2"],
        ]),
      );
      expect(await b.catalog.shaped("s", ["a", "b", "B"], "k1")).toEqual(new Map([["B", "B1"]]));
      // A batch drops the shape of a product it changes; a shape made from the document before (read before the
      // batch committed) is not stored for the new version, one made from the new version is, and stays.
      await b.tasks.commitBatch({ storeId: "s", at: 3, products: [live("a", 2)], advances: [] });
      expect((await b.catalog.shaped("s", ["a"], "k2")).size).toBe(0);
      await b.catalog.putShapes("s", "k2", [["a", 1, "A2 (made before)"]]);
      expect((await b.catalog.shaped("s", ["a"], "k2")).size).toBe(0);
      await b.catalog.putShapes("s", "k2", [["a", 2, "A3"]]);
      await b.catalog.putShapes("s", "k2", [["a", 2, "A3 again"]]);
      expect(await b.catalog.shaped("s", ["a", "b"], "k2")).toEqual(
        new Map([
          ["a", "A3"],
          ["b", "B2"],
        ]),
      );
      // Shapes dropped by id (a page's shapes made with colours that changed meanwhile); an unknown id is ignored.
      await b.catalog.dropShapes("s", ["a", "nope"]);
      expect(await b.catalog.shaped("s", ["a", "b"], "k2")).toEqual(new Map([["b", "B2"]]));
    });

    test("a store's tasks are leased to one holder at a time; a lease ran out is taken over", async () => {
      const b = backendOf();
      expect(await b.tasks.lease("s", "A", 100, 50)).toBe(true);
      expect(await b.tasks.lease("s", "B", 120, 50)).toBe(false);
      expect(await b.tasks.lease("t", "B", 120, 50)).toBe(true);
      // A renews its own lease.
      expect(await b.tasks.lease("s", "A", 140, 50)).toBe(true);
      expect(await b.tasks.lease("s", "B", 189, 50)).toBe(false);
      expect(await b.tasks.lease("s", "B", 190, 50)).toBe(true);
      expect(await b.tasks.lease("s", "A", 200, 50)).toBe(false);
    });
  });
}

for (const backend of BACKENDS) {
  describe(`${backend.name}: enrichment jobs and results`, () => {
    const backendOf = freshBackend(backend, ["s"]);
    const changed = (b: Backend, at: number, ...products: [id: string, version: number, deleted?: boolean][]) =>
      b.tasks.commitBatch({
        storeId: "s",
        at,
        products: products.map(([id, version, deleted = false]) => ({
          id,
          version,
          contentHash: deleted ? null : `h${version}`,
          deleted,
          doc: deleted ? null : "{}",
        })),
        advances: [],
      });
    const result = {
      attributes: { colour: ["red"] },
      colours: [{ variationId: "v1", values: [{ hex: "#ff0000", ratio: 0.7 }] }],
      content: [{ fieldName: "title", values: { en: "Red" } }],
    };
    const finish = (b: Backend, job: EnrichmentJob, now: number, next: "image" | null = null, dropShape = false) =>
      b.enrichment.finishStage({ job, result, next, now, webhookBody: `{"p":"${job.productId}"}`, dropShape });
    const ids = (jobs: EnrichmentJob[]) => jobs.map((j) => j.productId).sort();

    test("due jobs are claimed once until their claim runs out; a released claim is due at once", async () => {
      const b = backendOf();
      await changed(b, 10, ["a", 1], ["b", 1], ["c", 1]);
      expect(await b.enrichment.pendingCount()).toBe(3);
      expect(await b.enrichment.claimDue(9, 10, 100)).toEqual([]);
      const first = await b.enrichment.claimDue(20, 2, 100);
      expect(first).toHaveLength(2);
      expect(first[0]).toMatchObject({ storeId: "s", productVersion: 1, stage: "text", attempts: 0 });
      const second = await b.enrichment.claimDue(20, 10, 100);
      expect([...ids(first), ...ids(second)].sort()).toEqual(["a", "b", "c"]);
      expect(await b.enrichment.claimDue(119, 10, 100)).toEqual([]);
      // Claims ran out (their worker died): due again.
      expect(ids(await b.enrichment.claimDue(120, 10, 100))).toEqual(["a", "b", "c"]);
      await b.enrichment.releaseClaims();
      expect(ids(await b.enrichment.claimDue(120, 10, 100))).toEqual(["a", "b", "c"]);
    });

    test("a finished stage stores its result, moves the job on, queues its webhook calls and drops the shape, at once", async () => {
      const b = backendOf();
      await b.webhooks.createSubscriptionWithin(
        { id: "wh_a", storeId: "s", url: "https://8.8.8.8/", topic: "tags", secret: "x", createdAt: 0 },
        20,
      );
      await changed(b, 10, ["a", 1], ["b", 1]);
      await b.catalog.putShapes("s", "k", [
        ["a", 1, "{}"],
        ["b", 1, "{}"],
      ]);
      const [a, bJob] = (await b.enrichment.claimDue(20, 10, 100)).sort((x, y) => (x.productId < y.productId ? -1 : 1));
      expect(await finish(b, a!, 30, "image", true)).toEqual({ done: true, queued: 1 });
      expect(await b.enrichment.result("s", "a")).toEqual({ productVersion: 1, stage: "text", ...result });
      expect(await b.catalog.shaped("s", ["a", "b"], "k")).toEqual(new Map([["b", "{}"]]));
      // The image stage is due at once; the finished text stage cannot commit again.
      const [image] = await b.enrichment.claimDue(30, 10, 100);
      expect(image).toMatchObject({ productId: "a", stage: "image", attempts: 0 });
      expect(await finish(b, a!, 31)).toEqual({ done: false, queued: 0 });
      expect(await finish(b, image!, 40)).toEqual({ done: true, queued: 1 });
      expect(await b.enrichment.pendingCount()).toBe(1);
      expect((await b.webhooks.deliveries("wh_a", { limit: 10 })).map((d) => [d.productId, d.stage, d.body])).toEqual([
        ["a", "image", '{"p":"a"}'],
        ["a", "text", '{"p":"a"}'],
      ]);
      // The product changed while b's stage ran: its result is dropped, the new version starts again.
      await changed(b, 50, ["b", 2]);
      expect(await finish(b, bJob!, 55)).toEqual({ done: false, queued: 0 });
      expect(await b.enrichment.result("s", "b")).toBeNull();
      expect(await b.enrichment.claimDue(60, 10, 100)).toEqual([
        { storeId: "s", productId: "b", productVersion: 2, stage: "text", attempts: 0 },
      ]);
    });

    test("progress per stage counts queued and finished products; a changed product counts as queued again", async () => {
      const b = backendOf();
      expect(await b.enrichment.progress()).toEqual({ text: { done: 0, total: 0 }, image: { done: 0, total: 0 } });
      await changed(b, 10, ["a", 1], ["b", 1], ["c", 1]);
      // Every product still at the text stage may have an image: the image stage's total counts it.
      expect(await b.enrichment.progress()).toEqual({ text: { done: 0, total: 3 }, image: { done: 0, total: 3 } });
      const jobs = (await b.enrichment.claimDue(20, 10, 100)).sort((x, y) => (x.productId < y.productId ? -1 : 1));
      await finish(b, jobs[0]!, 30, "image");
      // c has no image: its text stage was its last.
      await finish(b, jobs[2]!, 30);
      expect(await b.enrichment.progress()).toEqual({ text: { done: 2, total: 3 }, image: { done: 0, total: 2 } });
      const [image] = await b.enrichment.claimDue(30, 10, 100);
      await finish(b, image!, 40);
      expect(await b.enrichment.progress()).toEqual({ text: { done: 2, total: 3 }, image: { done: 1, total: 2 } });
      await changed(b, 50, ["a", 2]);
      expect(await b.enrichment.progress()).toEqual({ text: { done: 1, total: 3 }, image: { done: 0, total: 2 } });
    });

    test("a failed stage is retried later with its error kept, or given up; a deleted product's enrichment goes", async () => {
      const b = backendOf();
      await changed(b, 10, ["a", 1], ["b", 1]);
      const [a, bJob] = (await b.enrichment.claimDue(20, 10, 10_000)).sort((x, y) => (x.productId < y.productId ? -1 : 1));
      await b.enrichment.failStage(a!, "x".repeat(600), 500);
      expect(await b.enrichment.claimDue(499, 10, 100)).toEqual([]);
      expect(await b.enrichment.claimDue(500, 10, 100)).toEqual([
        { storeId: "s", productId: "a", productVersion: 1, stage: "text", attempts: 1 },
      ]);
      expect(await b.rows("SELECT length(error) AS n FROM enrichment_jobs WHERE product_id = 'a'")).toEqual([{ n: 500 }]);
      await b.enrichment.failStage(a!, "gone", null);
      expect(await b.enrichment.pendingCount()).toBe(1);
      await finish(b, bJob!, 30);
      expect((await b.enrichment.resultsOf("s", ["b", "a"])).get("b")).toEqual({ attributes: result.attributes, colours: result.colours });
      expect((await b.enrichment.colours("s", ["a", "b"])).get("b")).toEqual(result.colours);
      await changed(b, 40, ["b", 2, true]);
      expect(await b.enrichment.result("s", "b")).toBeNull();
      expect(await b.enrichment.pendingCount()).toBe(0);
    });

    test("finished stages are listed for search until marked applied; a newer result is not marked by an older read", async () => {
      const b = backendOf();
      await changed(b, 10, ["a", 1], ["b", 1]);
      for (const job of await b.enrichment.claimDue(20, 10, 100))
        await finish(b, job, job.productId === "a" ? 30 : 31, job.productId === "a" ? "image" : null);
      const unsynced = await b.enrichment.unsynced(10);
      expect(unsynced.map((u) => [u.productId, u.stage, u.updatedAt])).toEqual([
        ["a", "text", 30],
        ["b", "text", 31],
      ]);
      const [image] = await b.enrichment.claimDue(40, 10, 100);
      await finish(b, image!, 45);
      await b.enrichment.markSynced(unsynced);
      expect((await b.enrichment.unsynced(10)).map((u) => [u.productId, u.stage])).toEqual([["a", "image"]]);
      expect(await b.enrichment.unsynced(0)).toEqual([]);
    });
  });
}

for (const backend of BACKENDS) {
  describe(`${backend.name}: reading and deleting events`, () => {
    const backendOf = freshBackend(backend, ["s", "t"]);
    const event = (storeId: string, type: string, receivedAt: number, data: Record<string, unknown> = {}): NewEvent => ({
      storeId,
      type,
      userId: receivedAt % 2 ? "u1" : null,
      sessionId: "v1",
      apiVersion: "1.9",
      data,
      receivedAt,
    });

    test("events are read on in arrival order across stores; a store's are listed by time, type and cursor; the oldest are deleted first", async () => {
      const b = backendOf();
      await b.ingest.commit([event("s", "SiteView", 30, { page: "ü" }), event("t", "Search", 10), event("s", "Search", 20)], []);
      await b.ingest.commit([event("s", "Search", 5)], []);
      const all = await b.events.after(0, 10);
      expect(all.map((e) => [e.storeId, e.type, e.receivedAt])).toEqual([
        ["s", "SiteView", 30],
        ["t", "Search", 10],
        ["s", "Search", 20],
        ["s", "Search", 5],
      ]);
      expect(all[0]).toMatchObject({ userId: null, sessionId: "v1", apiVersion: "1.9", data: { page: "ü" } });
      expect(all[3]!.userId).toBe("u1");
      expect((await b.events.after(all[1]!.seq, 1)).map((e) => e.receivedAt)).toEqual([20]);
      expect((await b.events.list({ storeId: "s", from: 5, to: 30, afterSeq: 0, limit: 10 })).map((e) => e.receivedAt)).toEqual([20, 5]);
      expect(
        (await b.events.list({ storeId: "s", from: 0, to: 100, type: "SiteView", afterSeq: 0, limit: 10 })).map((e) => e.receivedAt),
      ).toEqual([30]);
      expect((await b.events.list({ storeId: "s", from: 0, to: 100, afterSeq: all[2]!.seq, limit: 10 })).map((e) => e.receivedAt)).toEqual([
        5,
      ]);
      expect(await b.events.deleteReceivedBefore("s", 25, 1)).toBe(1);
      expect((await b.events.after(0, 10)).map((e) => e.receivedAt)).toEqual([30, 10, 20]);
      expect(await b.events.deleteReceivedBefore("s", 25, 10)).toBe(1);
      expect(await b.events.deleteReceivedBefore("s", 25, 10)).toBe(0);
      expect((await b.events.after(0, 10)).map((e) => e.receivedAt)).toEqual([30, 10]);
    });
  });
}

for (const backend of BACKENDS) {
  describe(`${backend.name}: counting events for reports and ranking`, () => {
    const backendOf = freshBackend(backend, ["s"]);
    const T = Date.UTC(2026, 2, 10, 12);
    const MIN = 60_000;
    const event = (type: string, at: number, data: Record<string, unknown>, sessionId = "v1"): NewEvent => ({
      storeId: "s",
      type,
      userId: "u1",
      sessionId,
      apiVersion: "1.9",
      data,
      receivedAt: at,
    });
    const worker = (b: Backend) =>
      new AnalyticsWorker(
        b.analytics,
        b.events,
        [new ReportCounter(), new BehaviourLearner(b.analytics, new ProductFacts(b.catalog), () => T), new RecommendationLearner()],
        createLogger("silent"),
        1,
      );
    const changedForEnrichment = async (b: Backend) => {
      await b.tasks.commitBatch({
        storeId: "s",
        at: 1,
        products: [{ id: "a", version: 1, contentHash: "h", deleted: false, doc: "{}" }],
        advances: [],
      });
      const [job] = await b.enrichment.claimDue(1, 1, 1000);
      await b.enrichment.finishStage({
        job: job!,
        result: { attributes: { material: ["linen"] }, colours: null, content: [] },
        next: null,
        now: 2,
        webhookBody: "{}",
        dropShape: false,
      });
    };
    const metrics = async (b: Backend) =>
      Object.fromEntries(
        (await b.rows("SELECT metric, SUM(value) AS v FROM report_daily GROUP BY metric")).map((r) => [r.metric, Number(r.v)]),
      );

    test("searches, clicks, carts and orders are counted once, attributed across batches, and teach ranking", async () => {
      const b = backendOf();
      await b.tasks.commitBatch({
        storeId: "s",
        at: 1,
        products: [
          {
            id: "a",
            version: 1,
            contentHash: "h",
            deleted: false,
            doc: JSON.stringify({ id: "a", name: "Coat", brand: "Acme", categories: ["Coats"] }),
          },
        ],
        advances: [],
      });
      const search = { query: "coat", productIds: ["b", "a", "c"], totalProducts: 3, region: "DE", language: "de", currency: "eur" };
      const order = { orderId: "o1", products: [{ id: "a", price: 10, qty: 2 }] };
      await b.ingest.commit(
        [
          event("Search", T, search),
          event("Search", T + MIN, { query: "nothing", productIds: [], totalProducts: 0 }),
          event("ProductClick", T + 2 * MIN, { query: "coat", productIds: ["b", "a", "c"], clickProductId: "a" }),
          event("AddToCart", T + 3 * MIN, { query: "coat", addProductId: "a" }),
          event("OrderComplete", T + 4 * MIN, order),
          event("OrderComplete", T + 5 * MIN, order),
          event("SiteView", T + 6 * MIN, {}, "v2"),
        ],
        [],
      );
      const w = worker(b);
      // Batches of two: the click, the cart and the order find the search in the state an earlier batch wrote.
      expect(await w.step(2)).toBe(2);
      expect(await w.step(2)).toBe(2);
      expect(await w.catchUp()).toBe(3);
      expect(await w.catchUp()).toBe(0);
      expect(await metrics(b)).toMatchObject({
        searches: 2,
        noResultSearches: 1,
        clicks: 1,
        clickedSearches: 1,
        cartedSearches: 1,
        convertedSearches: 1,
        orders: 1,
        revenue: 20,
        positions: 1,
        positionSum: 2,
        "position:2": 1,
      });
      expect(await b.rows("SELECT region, currency, searches, clicked, converted FROM report_queries WHERE query = 'coat'")).toEqual([
        { region: "DE", currency: "EUR", searches: 1, clicked: 1, converted: 1 },
      ]);
      expect(await b.rows("SELECT product_id, clicks, carts, purchases, revenue FROM report_products ORDER BY product_id")).toEqual([
        { product_id: "a", clicks: 1, carts: 1, purchases: 2, revenue: 20 },
      ]);
      expect(await b.rows("SELECT kind, COUNT(*) AS n FROM report_sketches GROUP BY kind ORDER BY kind")).toEqual([
        { kind: "session", n: 2 },
        { kind: "user", n: 2 },
      ]);
      expect(await b.rows("SELECT query, clicked, carted, converted FROM attribution_searches ORDER BY at")).toEqual([
        { query: "coat", clicked: 1, carted: 1, converted: 1 },
        { query: "nothing", clicked: 0, carted: 0, converted: 0 },
      ]);
      expect((await b.rows("SELECT product_ids FROM query_answers WHERE source = 'theirs' AND query = 'coat'"))[0]?.product_ids).toBe(
        '["b","a","c"]',
      );
      // Ranking evidence: the product overall and for the query; the shopper's taste for its brand.
      expect((await b.rows("SELECT query FROM behaviour_scores ORDER BY query")).map((r) => r.query)).toEqual(["", "coat"]);
      expect(
        (await b.rows("SELECT shopper, value FROM shopper_affinities WHERE facet = 'brand' ORDER BY shopper")).map((r) => [
          r.shopper,
          r.value,
        ]),
      ).toEqual([
        ["s:v1", "acme"],
        ["u:u1", "acme"],
      ]);
      // As search reads them.
      expect(await b.behaviour.hasEvidence("s")).toBe(true);
      const [coat] = await b.behaviour.forQuery("s", "coat", 10);
      // Clicked, then bought, from the search for "coat".
      expect(coat!.productId).toBe("a");
      expect(coat!.clicks).toBeGreaterThan(-Infinity);
      expect(coat!.conversions).toBeGreaterThan(-Infinity);
      const overall = (await b.behaviour.forProducts("s", ["a", "zz"])).get("a")!;
      // Click, cart and purchase, each once (the second copy of the order was not counted).
      expect(overall.conversions).toBeGreaterThan(-Infinity);
      expect([...(await b.behaviour.forProducts("s", ["a", "zz"])).keys()]).toEqual(["a"]);
      expect((await b.behaviour.affinitiesOf("s", ["u:u1", "s:nobody"])).map((r) => `${r.facet}=${r.value}`).sort()).toEqual([
        "brand=acme",
        "category=coats",
      ]);
    });

    test("erasing a shopper deletes their events, searches, profiles and sessions' state; reports keep their counts", async () => {
      const b = backendOf();
      await b.tasks.commitBatch({
        storeId: "s",
        at: 1,
        products: [{ id: "a", version: 1, contentHash: "h", deleted: false, doc: JSON.stringify({ id: "a", brand: "Acme" }) }],
        advances: [],
      });
      const of = (userId: string, sessionId: string, at: number): NewEvent[] => [
        {
          storeId: "s",
          type: "Search",
          userId,
          sessionId,
          apiVersion: "1.9",
          data: { query: "coat", productIds: ["a"], totalProducts: 1 },
          receivedAt: at,
        },
        {
          storeId: "s",
          type: "ProductClick",
          userId,
          sessionId,
          apiVersion: "1.9",
          data: { query: "coat", productIds: ["a"], clickProductId: "a" },
          receivedAt: at + MIN,
        },
      ];
      await b.ingest.commit([...of("u1", "v1", T), ...of("u1", "v2", T + 5 * MIN), ...of("u2", "v3", T + 10 * MIN)], []);
      const entry = (userId: string) => ({
        storeId: "s",
        at: T,
        query: "coat",
        collection: null,
        resultCount: 1,
        fallback: false,
        filtered: false,
        teaches: true,
        userId,
        sessionId: "v1",
        preprod: false,
      });
      await b.searchLog.append([entry("u1"), entry("u1"), entry("u2")], 3);
      await worker(b).catchUp();
      const before = await metrics(b);
      expect(await b.erasure.erase("s", "u1")).toEqual({ events: 4, searches: 2, sessions: 2 });
      expect((await b.events.after(0, 10)).map((e) => e.userId)).toEqual(["u2", "u2"]);
      expect(await b.rows("SELECT DISTINCT user_id FROM search_log")).toEqual([{ user_id: "u2" }]);
      expect(await b.rows("SELECT DISTINCT shopper FROM shopper_affinities ORDER BY shopper")).toEqual([
        { shopper: "s:v3" },
        { shopper: "u:u2" },
      ]);
      expect(await b.rows("SELECT DISTINCT session_id FROM attribution_searches")).toEqual([{ session_id: "v3" }]);
      expect(await b.rows("SELECT DISTINCT actor FROM behaviour_seen ORDER BY actor")).toEqual([{ actor: "u2" }]);
      expect(await b.rows("SELECT DISTINCT shopper FROM shopper_products ORDER BY shopper")).toEqual([
        { shopper: "s:v3" },
        { shopper: "u:u2" },
      ]);
      expect(await metrics(b)).toEqual(before);
      expect(await b.erasure.erase("s", "u1")).toEqual({ events: 0, searches: 0, sessions: 0 });
    });

    test("recommendation signals: interest per day once per shopper, orders and pairs once per order, shoppers' bounded lists", async () => {
      const b = backendOf();
      const DAY = 86_400_000;
      const ev = (type: string, at: number, userId: string, data: Record<string, unknown>): NewEvent => ({
        storeId: "s",
        type,
        userId,
        sessionId: `${userId}-visit`,
        apiVersion: "1.9",
        data,
        receivedAt: at,
      });
      const click = (at: number, userId: string, id: string) => ev("ProductClick", at, userId, { clickProductId: id });
      const order = (at: number, userId: string, orderId: string, ids: string[]) =>
        ev("OrderComplete", at, userId, { orderId, products: ids.map((id) => ({ id })) });
      await b.ingest.commit(
        [
          click(T - 3 * DAY, "u1", "a"),
          click(T, "u1", "a"),
          click(T + MIN, "u1", "a"),
          click(T + 2 * MIN, "u2", "a"),
          ev("AddToCart", T + 3 * MIN, "u2", { addProductId: "b" }),
          order(T + 4 * MIN, "u1", "o1", ["a", "b"]),
          order(T + 5 * MIN, "u1", "o1", ["a", "b"]),
          order(T + 6 * MIN, "u2", "o2", ["a", "b", "c"]),
          ...Array.from({ length: 55 }, (_, i) => click(T + (10 + i) * MIN, "u3", `p${String(i).padStart(2, "0")}`)),
        ],
        [],
      );
      await worker(b).catchUp();
      const r = b.recommendations;
      const today = new Date(T).toISOString().slice(0, 10);
      const earlier = new Date(T - 3 * DAY).toISOString().slice(0, 10);
      // a: u1's view three days ago; today u1's and u2's views (u1's second not counted) and two purchases (5 each).
      const interest = await r.recentInterest("s", today, earlier, 3);
      expect(interest).toEqual(
        [
          { productId: "a", recent: 12, before: 1 },
          { productId: "b", recent: 13, before: 0 },
          { productId: "c", recent: 5, before: 0 },
        ].sort((x, y) => y.recent - x.recent),
      );
      const totals = await r.interestTotals("s", today, earlier);
      expect(totals).toEqual({ recent: 12 + 13 + 5 + 55, before: 1 });
      // o1 reported twice counts once.
      expect(await r.orderCounts("s", "a")).toEqual({ store: 2, product: 2 });
      expect(await r.orderCounts("s", "zz")).toEqual({ store: 2, product: 0 });
      expect((await r.partners("s", "a", 1)).sort((x, y) => (x.productId < y.productId ? -1 : 1))).toEqual([
        { productId: "b", together: 2, orders: 2 },
        { productId: "c", together: 1, orders: 1 },
      ]);
      expect(await r.partners("s", "a", 2)).toEqual([{ productId: "b", together: 2, orders: 2 }]);
      // Per shopper: last viewed first; bought products apart; the user and the session each keep a list.
      expect(await r.viewed("s", "u:u1", 10)).toEqual(["a"]);
      expect(await r.viewed("s", "s:u1-visit", 10)).toEqual(["a"]);
      expect(await r.bought("s", "u:u2")).toEqual(["a", "b", "c"]);
      expect(await r.viewed("s", "u:u2", 10)).toEqual(["a"]);
      // 55 views: the 50 newest are kept.
      const u3 = await r.viewed("s", "u:u3", 100);
      expect(u3.length).toBe(50);
      expect(u3[0]).toBe("p54");
      expect(u3.at(-1)).toBe("p05");
    });

    test("trending inputs: a period's most searched queries and most clicked products with their enrichment", async () => {
      const b = backendOf();
      const bucket = (day: string) => ({ storeId: "s", day, region: "", language: "", currency: "" });
      const counts = (searches: number) => ({ searches, noResults: 0, clicked: 0, converted: 0, positionSum: 0, positions: 0 });
      await b.analytics.commit({
        ...NO_ANALYTICS_WRITES,
        consumer: "analytics",
        afterSeq: 0,
        lastSeq: 1,
        queries: [
          { bucket: bucket("2026-03-01"), query: "linen", counts: counts(5) },
          { bucket: bucket("2026-03-02"), query: "linen", counts: counts(2) },
          { bucket: bucket("2026-03-02"), query: "silk", counts: counts(7) },
          { bucket: bucket("2026-03-09"), query: "wool", counts: counts(9) },
          { bucket: bucket("2026-03-02"), query: "", counts: counts(50) },
        ],
        products: [
          { bucket: bucket("2026-03-02"), productId: "a", counts: { clicks: 3, carts: 0, purchases: 0, revenue: 0 } },
          { bucket: bucket("2026-03-02"), productId: "b", counts: { clicks: 4, carts: 0, purchases: 0, revenue: 0 } },
        ],
      });
      expect(await b.trendInputs.queries("s", "2026-03-01", "2026-03-07", 10)).toEqual(
        [
          { query: "silk", n: 7 },
          { query: "linen", n: 7 },
        ].sort((x, y) => y.n - x.n || (x.query < y.query ? -1 : 1)),
      );
      expect(await b.trendInputs.queries("s", "2026-03-01", "2026-03-07", 1)).toEqual([{ query: "linen", n: 7 }]);
      // Only enriched products have attributes to count.
      await changedForEnrichment(b);
      expect(await b.trendInputs.clickedProducts("s", "2026-03-01", "2026-03-07", 10)).toEqual([
        { attributes: '{"material":["linen"]}', n: 3 },
      ]);
    });

    test("reports read the counts back over a scope: by day, query, product, position, visitors, and against our pre-production answers", async () => {
      const b = backendOf();
      const ev = (type: string, at: number, sessionId: string, data: Record<string, unknown>): NewEvent => ({
        storeId: "s",
        type,
        userId: null,
        sessionId,
        apiVersion: "1.9",
        data,
        receivedAt: at,
      });
      const search = (q: string, ids: string[], dims: Record<string, string> = { currency: "EUR", region: "DE" }) => ({
        query: q,
        productIds: ids,
        totalProducts: ids.length,
        ...dims,
      });
      await b.ingest.commit(
        [
          ev("Search", T, "v1", search("coat", ["a", "b"])),
          ev("ProductClick", T + MIN, "v1", { query: "coat", productIds: ["a", "b"], clickProductId: "b" }),
          ev("OrderComplete", T + 2 * MIN, "v1", { orderId: "o1", products: [{ id: "b", price: 30 }] }),
          ev("Search", T + 86_400_000, "v2", search("coat", ["a"], { currency: "USD", region: "US" })),
          ev("Search", T + 86_400_000 + MIN, "v2", search("hat", [], { currency: "USD", region: "US" })),
          ev("OrderComplete", T + 86_400_000 + 2 * MIN, "v2", { orderId: "o2", products: [{ id: "a", price: 5, qty: 2 }] }),
        ],
        [],
      );
      await b.searchLog.append(
        [
          {
            storeId: "s",
            at: T,
            query: "coat",
            collection: null,
            resultCount: 2,
            fallback: false,
            filtered: false,
            teaches: false,
            userId: null,
            sessionId: "x",
            preprod: true,
            shadowAnswer: { total: 2, productIds: ["b", "z"] },
          },
        ],
        3,
      );
      await worker(b).catchUp();
      const scope: ReportScope = { storeId: "s", from: "2026-03-10", to: "2026-03-11", region: null, language: null, currency: null };
      const sum = (rows: { metric: string; value: number }[], metric: string) =>
        rows.filter((r) => r.metric === metric).reduce((n, r) => n + r.value, 0);
      const daily = await b.reports.dailyCounts(scope);
      expect([sum(daily, "searches"), sum(daily, "noResultSearches"), sum(daily, "orders"), sum(daily, "position:2")]).toEqual([
        3, 1, 2, 0,
      ]);
      expect(
        daily
          .filter((r) => r.metric === "searches")
          .map((r) => [r.day, r.value])
          .sort(),
      ).toEqual([
        ["2026-03-10", 1],
        ["2026-03-11", 2],
      ]);
      expect((await b.reports.dailyRevenue(scope)).map((r) => [r.day, r.currency, r.value]).sort()).toEqual([
        ["2026-03-10", "EUR", 30],
        ["2026-03-11", "USD", 10],
      ]);
      expect([...(await b.reports.positions(scope))]).toEqual([[2, 1]]);
      const visitors = await b.reports.visitors(scope);
      expect(visitors.total.session).toBe(2);
      expect(visitors.daily.map((d) => [d.day, d.kind, d.n]).sort()).toEqual([
        ["2026-03-10", "session", 1],
        ["2026-03-10", "user", 1],
        ["2026-03-11", "session", 1],
        ["2026-03-11", "user", 1],
      ]);
      expect(
        (await b.reports.queries(scope, "searches", 10)).map((q) => [
          q.query,
          q.searches,
          q.noResults,
          q.clicked,
          q.converted,
          q.positionSum,
          q.positions,
        ]),
      ).toEqual([
        ["coat", 2, 0, 1, 1, 2, 1],
        ["hat", 1, 1, 0, 0, 0, 0],
      ]);
      expect((await b.reports.queries(scope, "no-results", 10)).map((q) => q.query)).toEqual(["hat"]);
      expect((await b.reports.queries({ ...scope, region: "US" }, "no-clicks", 10)).map((q) => q.query)).toEqual(["coat"]);
      expect(await b.reports.products(scope, "purchases", 10)).toEqual([
        { productId: "a", clicks: 0, carts: 0, purchases: 2, revenue: { USD: 10 } },
        { productId: "b", clicks: 1, carts: 0, purchases: 1, revenue: { EUR: 30 } },
      ]);
      expect((await b.reports.products(scope, "clicks", 10)).map((p) => p.productId)).toEqual(["b"]);
      expect(await b.reports.shadowQueries(scope)).toEqual([
        { query: "coat", searches: 2, noResults: 0, ourTotal: 2, ourIds: '["b","z"]', theirIds: '["a"]' },
      ]);
      expect(await b.reports.shadowClicks(scope)).toEqual([{ query: "coat", productId: "b", clicks: 1 }]);
      expect(await b.reports.searchesWithQuery(scope)).toBe(3);
      expect(await b.reports.searchesWithQuery({ ...scope, currency: "EUR" })).toBe(1);
    });

    test("a batch whose progress moved on meanwhile is not written", async () => {
      const b = backendOf();
      await b.ingest.commit([event("Search", T, { query: "coat", productIds: ["a"], totalProducts: 1 })], []);
      const writes = {
        consumer: "analytics",
        afterSeq: 0,
        lastSeq: 1,
        daily: [{ bucket: { storeId: "s", day: "2026-03-10", region: "", language: "", currency: "" }, metric: "searches", delta: 1 }],
      };
      expect(await b.analytics.commit({ ...NO_ANALYTICS_WRITES, ...writes })).toBe(true);
      expect(await b.analytics.commit({ ...NO_ANALYTICS_WRITES, ...writes })).toBe(false);
      expect(await b.analytics.lastSeq("analytics")).toBe(1);
      expect(await metrics(b)).toEqual({ searches: 1 });
    });
  });
}

describe("PostgreSQL: replicas count events", () => {
  test("two replicas counting the same events at once count each once", async () => {
    await withReplicas(2, async (sqls) => {
      await new PostgresStoresRepo(sqls[0]!).create("s", 1);
      const events: NewEvent[] = Array.from({ length: 300 }, (_, i) => ({
        storeId: "s",
        type: "Search",
        userId: null,
        sessionId: `v${i % 40}`,
        apiVersion: "1.9",
        data: { query: `q${i % 7}`, productIds: ["a"], totalProducts: 1 },
        receivedAt: Date.UTC(2026, 2, 10) + i,
      }));
      await new PostgresEventIngest(sqls[0]!).commit(events, []);
      const workers = sqls.map((sql) => {
        const state = new PostgresAnalyticsStateRepo(sql);
        return new AnalyticsWorker(
          state,
          new PostgresEventsRepo(sql),
          [new ReportCounter(), new BehaviourLearner(state, new ProductFacts(new PostgresCatalogRepo(sql)), Date.now)],
          createLogger("silent"),
        );
      });
      await Promise.all(
        workers.map(async (w) => {
          while ((await w.step(25)) > 0);
        }),
      );
      const [row] = await sqls[0]!`SELECT SUM(value)::float8 AS n FROM report_daily WHERE metric = 'searches'`;
      expect(row!.n).toBe(300);
      const [searches] = await sqls[0]!`SELECT COUNT(*)::int AS n FROM attribution_searches`;
      expect(searches!.n).toBe(300);
    });
  });
});

describe("PostgreSQL: replicas claim enrichment jobs", () => {
  test("four replicas claiming at once run each job once", async () => {
    await withReplicas(
      4,
      async (sqls) => {
        await new PostgresStoresRepo(sqls[0]!).create("s", 1);
        await new PostgresTasksRepo(sqls[0]!).commitBatch({
          storeId: "s",
          at: 1,
          products: Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, version: 1, contentHash: "h", deleted: false, doc: "{}" })),
          advances: [],
        });
        const claimed: string[] = [];
        await Promise.all(
          sqls.map(async (sql) => {
            const repo = new PostgresEnrichmentRepo(sql);
            for (let round = 0; round < 40; round++) claimed.push(...(await repo.claimDue(10, 8, 60_000)).map((j) => j.productId));
          }),
        );
        expect(claimed).toHaveLength(200);
        expect(new Set(claimed).size).toBe(200);
      },
      { max: 2 },
    );
  });
});

describe("PostgreSQL: replicas commit indexing batches", () => {
  test("two replicas committing the same slice at once: one commits it, the other is refused, the versions are the first's", async () => {
    await withReplicas(2, async ([sqlA, sqlB]) => {
      await new PostgresStoresRepo(sqlA!).create("s", 1);
      const tasks = new PostgresTasksRepo(sqlA!);
      await tasks.insert({ id: "a", storeId: "s", kind: "upsert", payload: "[]", itemCount: 100, now: 1 });
      const [a] = await tasks.pendingOf("s", 1);
      const batch = (replica: string) => ({
        storeId: "s",
        at: 5,
        products: Array.from({ length: 100 }, (_, i) => ({ id: `p${i}`, version: 1, contentHash: replica, deleted: false, doc: "{}" })),
        advances: [{ seq: a!.seq, from: 0, to: 100, itemCount: 100 }],
      });
      for (let round = 0; round < 5; round++) {
        const results = await Promise.all([
          new PostgresTasksRepo(sqlA!).commitBatch(batch("A")),
          new PostgresTasksRepo(sqlB!).commitBatch(batch("B")),
        ]);
        if (round === 0) expect(results.filter(Boolean)).toHaveLength(1);
        else expect(results).toEqual([false, false]);
      }
      const hashes = await sqlA!`SELECT DISTINCT content_hash FROM products`;
      expect(hashes).toHaveLength(1);
      expect(await tasks.get("s", "a")).toMatchObject({ status: "complete", cursor: 100 });
    });
  });
});

describe("PostgreSQL: replicas append events one batch at a time", () => {
  test("a batch waits while another replica's batch holds the append lock, so seq order is commit order", async () => {
    await withReplicas(2, async ([sqlA, sqlB]) => {
      await new PostgresStoresRepo(sqlA!).create("s", 1);
      const event: NewEvent = { storeId: "s", type: "SiteView", userId: null, sessionId: "v", apiVersion: "1.9", data: {}, receivedAt: 1 };
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      // Replica A's batch, mid-commit: it holds the lock until released.
      const a = sqlA!.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${EVENT_APPEND_LOCK})`;
        locked();
        await held;
      });
      await lockTaken;
      let committed = false;
      const b = new PostgresEventIngest(sqlB!).commit([event], []).then(() => (committed = true));
      await Bun.sleep(200);
      expect(committed).toBe(false);
      release();
      await Promise.all([a, b]);
      expect(committed).toBe(true);
    });
  });
});

describe("PostgreSQL: replicas claim webhook deliveries", () => {
  test("four replicas claiming at once send each delivery once", async () => {
    await withReplicas(
      4,
      async (sqls) => {
        await new PostgresStoresRepo(sqls[0]!).create("s1", 1);
        const repos = sqls.map((sql) => new PostgresWebhooksRepo(sql));
        await repos[0]!.createSubscriptionWithin(
          { id: "wh_a", storeId: "s1", url: "https://8.8.8.8/", topic: "tags", secret: "x", createdAt: 0 },
          20,
        );
        for (let i = 0; i < 200; i++)
          await repos[0]!.enqueue({ storeId: "s1", productId: `p${i}`, productVersion: 1, stage: "text", body: "{}", now: 1_000 });
        const claimed: string[] = [];
        await Promise.all(
          repos.map(async (repo) => {
            for (let round = 0; round < 40; round++) claimed.push(...(await repo.claimDue("wh_a", 2_000, 8)).map((d) => d.id));
          }),
        );
        expect(claimed).toHaveLength(200);
        expect(new Set(claimed).size).toBe(200);
      },
      { max: 2 },
    );
  });
});

describe("PostgreSQL: replicas hear each other's synonym changes", () => {
  test("a set put or deleted through one replica widens or stops widening searches on the other within a second", async () => {
    await withReplicas(2, async ([sqlA, sqlB]) => {
      const [feedA, feedB] = [new PostgresChangeFeed(sqlA!), new PostgresChangeFeed(sqlB!)];
      await Promise.all([feedA.start(), feedB.start()]);
      await new PostgresStoresRepo(sqlA!).create("s", 1);
      const store = { id: "s", createdAt: 1 };
      const a = new SynonymService(new PostgresSynonymsRepo(sqlA!), () => 1000, feedA);
      const b = new SynonymService(new PostgresSynonymsRepo(sqlB!), () => 1000, feedB);
      const request: EngineSearchRequest = {
        text: "jumper",
        matching: { typos: true, prefixLast: true },
        filters: [],
        facets: [],
        rangeFacets: [],
        sort: [],
        offset: 0,
        limit: 10,
      };
      const widened = async (service: SynonymService) => ((await service.matcher(store)).widen(request).alternatives ?? []).length > 0;
      // B builds its matcher before the set exists: only the feed can tell it.
      expect(await widened(b)).toBe(false);
      await a.put("s", "knit", { synonyms: ["jumper", "sweater"] });
      expect(await widened(a)).toBe(true);
      const until = async (want: boolean) => {
        const started = Date.now();
        while (Date.now() - started < 1000 && (await widened(b)) !== want) await Bun.sleep(10);
        return Date.now() - started;
      };
      expect(await until(true)).toBeLessThan(1000);
      await a.delete("s", "knit");
      expect(await until(false)).toBeLessThan(1000);
      expect(await widened(b)).toBe(false);
      await Promise.all([feedA.close(), feedB.close()]);
    });
  });
});

describe("PostgreSQL: replicas hear each other's ranking evidence", () => {
  test("evidence one replica's analytics counted reaches the other's cached reads within a second", async () => {
    await withReplicas(2, async ([sqlA, sqlB]) => {
      const [feedA, feedB] = [new PostgresChangeFeed(sqlA!), new PostgresChangeFeed(sqlB!)];
      await Promise.all([feedA.start(), feedB.start()]);
      await new PostgresStoresRepo(sqlA!).create("s", 1);
      const cacheB = new EvidenceCache(new PostgresBehaviourRepo(sqlB!), feedB);
      expect(await cacheB.hasEvidence("s", 1)).toBe(false);
      const stateA = new PostgresAnalyticsStateRepo(sqlA!);
      const cacheA = new EvidenceCache(new PostgresBehaviourRepo(sqlA!), feedA);
      const learnerA = new BehaviourLearner(stateA, new ProductFacts(new PostgresCatalogRepo(sqlA!)), Date.now, cacheA);
      const workerA = new AnalyticsWorker(stateA, new PostgresEventsRepo(sqlA!), [new ReportCounter(), learnerA], createLogger("silent"));
      const click: NewEvent = {
        storeId: "s",
        type: "ProductClick",
        userId: "u1",
        sessionId: "v1",
        apiVersion: "1.9",
        data: { query: "coat", productIds: ["a"], clickProductId: "a" },
        receivedAt: Date.now(),
      };
      await new PostgresEventIngest(sqlA!).commit([click], []);
      await workerA.catchUp();
      const started = Date.now();
      while (Date.now() - started < 1000 && !(await cacheB.hasEvidence("s", 1))) await Bun.sleep(10);
      expect(await cacheB.hasEvidence("s", 1)).toBe(true);
      expect((await cacheB.forQuery("s", 1, "coat", 10)).map((r) => r.productId)).toEqual(["a"]);
      await Promise.all([feedA.close(), feedB.close()]);
    });
  });
});

describe("PostgreSQL: replicas share stores, keys and settings", () => {
  test("a key revoked through one replica is refused by the other at once; settings read there are the new ones", async () => {
    await withReplicas(2, async ([sqlA, sqlB]) => {
      const [storesA, storesB] = [new PostgresStoresRepo(sqlA!), new PostgresStoresRepo(sqlB!)];
      const keys = (await new StoreAdmin(storesA, Date.now).create("shop"))!;
      expect((await findCaller(storesB, "shop", keys.search, Date.now()))?.keyKind).toBe("search");
      // Rotation with no grace period is a revocation: the next request to the other replica is refused.
      const fresh = await new StoreAdmin(storesA, Date.now).rotate("shop", "search", 0);
      expect(await findCaller(storesB, "shop", keys.search, Date.now())).toBeNull();
      expect((await findCaller(storesB, "shop", fresh, Date.now()))?.keyKind).toBe("search");
      await storesA.updateSettings("shop", { locale: "de" });
      expect((await findCaller(storesB, "shop", fresh, Date.now()))?.store.settings).toEqual({ locale: "de" });
    });
  });
});

describe("PostgreSQL migrations", () => {
  let sqls: Sql[] = [];
  afterEach(async () => {
    await Promise.all(sqls.map((s) => s.end()));
    sqls = [];
  });

  test("replicas starting together migrate once: one applies the schema, the others find it done", async () => {
    const url = await cluster.createDatabase();
    sqls = Array.from({ length: 4 }, () => openPostgres(url, { max: 1 }));
    const applied = await Promise.all(sqls.map((sql) => migratePostgres(sql)));
    expect(applied.sort()).toEqual([0, 0, 0, POSTGRES_MIGRATIONS.length]);
    const versions = await sqls[0]!<{ version: number }[]>`SELECT version FROM schema_migrations ORDER BY version`;
    expect(versions.map((v) => v.version)).toEqual(POSTGRES_MIGRATIONS.map((_, i) => i + 1));
    expect(await migratePostgres(sqls[0]!)).toBe(0);
  });

  test("a later migration is applied on the next start, the earlier ones are not run again", async () => {
    const sql = openPostgres(await cluster.createDatabase(), { max: 1 });
    sqls = [sql];
    expect(await migratePostgres(sql)).toBe(POSTGRES_MIGRATIONS.length);
    const next = [...POSTGRES_MIGRATIONS, "CREATE TABLE later_table (id INTEGER PRIMARY KEY)"];
    expect(await migratePostgres(sql, next)).toBe(1);
    expect((await sql`SELECT count(*)::int AS n FROM later_table`)[0]!.n).toBe(0);
  });

  test("a fresh database has the same tables and columns on both, but for what each database keeps its own way", async () => {
    const sqlite = new Database(":memory:");
    migrate(sqlite, MIGRATIONS);
    const sqliteTables = sqlite
      .query(
        "SELECT m.name AS t, p.name AS c FROM sqlite_master AS m, pragma_table_info(m.name) AS p WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'",
      )
      .all() as { t: string; c: string }[];
    sqlite.close();
    const sql = openPostgres(await cluster.createDatabase(), { max: 1 });
    sqls = [sql];
    await migratePostgres(sql);
    const postgresTables = await sql<{ t: string; c: string }[]>`
      SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_migrations'`;
    const columns = (rows: { t: string; c: string }[]) => rows.map((r) => `${r.t}.${r.c}`).sort();
    const [onSqlite, onPostgres] = [columns(sqliteTables), columns([...postgresTables])];
    // SQLite keeps each product's shape in its row and counts shape changes by trigger (one process, one file);
    // PostgreSQL keeps shapes in their own table and leases a store's indexing to one replica.
    expect(onSqlite.filter((c) => !onPostgres.includes(c))).toEqual([
      "products.shaped",
      "products.shaping",
      "shape_epochs.epoch",
      "shape_epochs.store_id",
    ]);
    expect(onPostgres.filter((c) => !onSqlite.includes(c))).toEqual([
      "indexing_leases.holder",
      "indexing_leases.store_id",
      "indexing_leases.until",
      "search_products.id",
      "search_products.json",
      "search_products.shaping",
      "search_products.store_id",
    ]);
  });

  test("a failing migration leaves nothing half-applied", async () => {
    const sql = openPostgres(await cluster.createDatabase(), { max: 1 });
    sqls = [sql];
    await expect(migratePostgres(sql, [...POSTGRES_MIGRATIONS, "CREATE TABLE t1 (id INTEGER); SELECT no_such_function()"])).rejects.toThrow(
      /no_such_function/,
    );
    expect((await sql`SELECT to_regclass('t1') AS t`)[0]!.t).toBeNull();
    expect((await sql`SELECT to_regclass('stores') AS t`)[0]!.t).toBeNull();
  });
});
