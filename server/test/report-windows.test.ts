import { CONVERSION_WINDOW_MS } from "../src/modules/analytics/event-facts.ts";
import { SqliteAnalyticsStateRepo } from "../src/modules/analytics/storage/analytics-state.sqlite.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { SqliteEventsRepo } from "../src/modules/events/storage/events.sqlite.ts";
import { SqliteReportsRepo } from "../src/modules/reports/storage/reports.sqlite.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { createLogger } from "../src/log.ts";
import { AnalyticsWorker } from "../src/modules/analytics/analytics-worker.ts";
import { ReportCounter } from "../src/modules/analytics/report-counter.ts";
import { BehaviourLearner } from "../src/modules/ranking/behaviour-learner.ts";
import { ProductFacts } from "../src/modules/ranking/product-facts.ts";
import { SqliteCatalogRepo } from "../src/modules/catalog/storage/catalog.sqlite.ts";
import { parseReportParams } from "../src/modules/reports/report-params.ts";
import { ReportsService } from "../src/modules/reports/reports-service.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * The time windows of the definitions, at their edges: events are written with chosen arrival times into a real
 * database and counted by the real worker (the HTTP API stamps arrival with the clock, which a test cannot move).
 */

const MIN = 60_000;
const T0 = Date.parse("2026-03-10T23:50:00Z");
let db: Database;
let events: SqliteEventsRepo;

beforeEach(async () => {
  db = openServiceDatabase(tempDir(), { synchronous: "NORMAL" });
  await new SqliteStoresRepo(db).create("s", 1);
  events = new SqliteEventsRepo(db);
});
afterEach(() => db.close());

const worker = () =>
  new AnalyticsWorker(
    new SqliteAnalyticsStateRepo(db),
    events,
    [new ReportCounter(), new BehaviourLearner(new SqliteAnalyticsStateRepo(db), new ProductFacts(new SqliteCatalogRepo(db)), () => T0)],
    createLogger("silent"),
  );

function add(at: number, sessionId: string, type: string, data: Record<string, unknown>): void {
  events.append([{ storeId: "s", type, userId: null, sessionId, apiVersion: "1.9", data, receivedAt: at }]);
}

async function overview(
  from = "2026-03-01",
  to = "2026-03-31",
): Promise<Record<string, unknown> & { daily: { date: string; clickThroughRate: number | null }[] }> {
  const service = new ReportsService(new SqliteReportsRepo(db), () => worker().catchUp());
  return (await service.report("s", "overview", parseReportParams({ from, to }, T0, { fallback: 100, max: 1000 }))).json as never;
}

const search = (q: string) => ({ query: q, productIds: ["a", "b", "c"], totalProducts: 3 });
const click = (q: string, id: string) => ({ query: q, productIds: ["a", "b", "c"], clickProductId: id });

describe("time windows", () => {
  test("a click 30 minutes after the search counts; 31 minutes after does not", async () => {
    add(T0, "in", "Search", search("coat"));
    add(T0 + 30 * MIN, "in", "ProductClick", click("coat", "a"));
    add(T0, "late", "Search", search("coat"));
    add(T0 + 31 * MIN, "late", "ProductClick", click("coat", "a"));
    expect(await overview()).toMatchObject({ searches: 2, clickThroughRate: 0.5 });
  });

  test("a click counts only for the same session and query, and never before the search", async () => {
    add(T0, "a", "ProductClick", click("coat", "a"));
    add(T0 + MIN, "a", "Search", search("coat"));
    add(T0 + 2 * MIN, "a", "ProductClick", click("scarf", "a"));
    add(T0 + 2 * MIN, "b", "ProductClick", click("coat", "a"));
    expect(await overview()).toMatchObject({ searches: 1, clickThroughRate: 0 });
  });

  test("a mark counts on the search's day, even when the click arrives after midnight", async () => {
    add(T0, "a", "Search", search("coat"));
    add(T0 + 20 * MIN, "a", "ProductClick", click("coat", "b"));
    const o = await overview();
    const days = new Map(o.daily.map((d) => [d.date, d.clickThroughRate]));
    expect(days.get("2026-03-10")).toBe(1);
    expect(days.get("2026-03-11")).toBeNull();
  });

  test("add-to-cart converts within a day; a purchase converts only the searches its product was clicked from", async () => {
    add(T0, "cart", "Search", search("coat"));
    add(T0 + 23 * 60 * MIN, "cart", "AddToCart", { query: "coat", addProductId: "a" });
    add(T0, "stale", "Search", search("coat"));
    add(T0 + 25 * 60 * MIN, "stale", "AddToCart", { query: "coat", addProductId: "a" });
    add(T0, "bought", "Search", search("hat"));
    add(T0 + MIN, "bought", "ProductClick", click("hat", "b"));
    add(T0 + 2 * MIN, "bought", "Purchase", { orderId: "o1", products: [{ id: "b", price: 5 }] });
    add(T0, "other", "Search", search("hat"));
    add(T0 + MIN, "other", "ProductClick", click("hat", "b"));
    add(T0 + 2 * MIN, "other", "Purchase", { orderId: "o2", products: [{ id: "c", price: 5 }] });
    // 4 searches with results: cart (converted), stale (not), bought (converted), other (clicked, bought another product).
    expect(await overview()).toMatchObject({
      searches: 4,
      conversionRate: 0.5,
      addToCartRate: 0.25,
      clickThroughRate: 0.5,
      orders: 2,
      revenue: { XXX: 10 },
    });
  });

  test("counting resumes where it stopped: events are counted exactly once across restarts", async () => {
    for (let i = 0; i < 10; i++) {
      add(T0 + i, `s${i}`, "Search", search("coat"));
      add(T0 + i + MIN, `s${i}`, "ProductClick", click("coat", "a"));
    }
    expect(await worker().step(7)).toBe(7);
    expect(await worker().step(5)).toBe(5);
    expect(await overview()).toMatchObject({ searches: 10, clickThroughRate: 1, sessions: 10 });
    expect(await worker().catchUp()).toBe(0);
  });

  test("a report's catch-up and the background count at once count each event once", async () => {
    for (let i = 0; i < 10; i++) add(T0 + i, `s${i}`, "Search", search("coat"));
    const w = worker();
    const counted = await Promise.all([w.step(4), w.catchUp(), w.step(4)]);
    expect(counted.reduce((a, n) => a + n, 0)).toBe(10);
    expect(await overview()).toMatchObject({ searches: 10 });
  });
});

describe("bounded working state", () => {
  test("ranking evidence is dropped once decayed below a hundredth of a click", async () => {
    const w = new AnalyticsWorker(
      new SqliteAnalyticsStateRepo(db),
      events,
      [new ReportCounter(), new BehaviourLearner(new SqliteAnalyticsStateRepo(db), new ProductFacts(new SqliteCatalogRepo(db)), () => T0)],
      createLogger("silent"),
      1,
    );
    add(T0, "a", "ProductClick", click("coat", "a"));
    await w.catchUp();
    const rows = () => (db.query("SELECT COUNT(*) AS n FROM behaviour_scores").get() as { n: number }).n;
    expect(rows()).toBe(2); // the query's and the product's
    // Each batch prunes what is old as of its last event, less the conversion window.
    const later = (days: number) => add(T0 + days * 24 * 60 * MIN + CONVERSION_WINDOW_MS, "b", "SiteView", {});
    later(90); // 90 days: 2^-6.4 of a click is still there
    await w.catchUp();
    expect(rows()).toBe(2);
    later(100); // 100 days: 2^-7.1 < 0.01
    await w.catchUp();
    expect(rows()).toBe(0);
  });
});
