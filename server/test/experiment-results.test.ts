import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { Rng } from "../../demo-store/src/catalog/seeded-random.ts";
import { createLogger } from "../src/log.ts";
import { AnalyticsWorker } from "../src/modules/analytics/analytics-worker.ts";
import { ReportCounter } from "../src/modules/analytics/report-counter.ts";
import { SqliteAnalyticsStateRepo } from "../src/modules/analytics/storage/analytics-state.sqlite.ts";
import type { NewEvent } from "../src/modules/events/storage/events-repository.ts";
import { SqliteEventsRepo } from "../src/modules/events/storage/events.sqlite.ts";
import { assignVariant } from "../src/modules/experiments/assignment.ts";
import { ExperimentCounter } from "../src/modules/experiments/experiment-counter.ts";
import { resultsOf } from "../src/modules/experiments/experiment-results.ts";
import type { Experiment, ExperimentBody } from "../src/modules/experiments/experiment-schema.ts";
import { MAX_EVENTS_PER_SHOPPER } from "../src/modules/experiments/experiment-tally.ts";
import { SqliteExperimentsRepo } from "../src/modules/experiments/storage/experiments.sqlite.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * An experiment's results from simulated shoppers' events (fixed seeds), written with chosen arrival times into a
 * real database and counted by the real analytics worker into the per-shopper counters the results read: a lift
 * built into one variant's behaviour comes out as a significant difference of about its size; events outside the
 * experiment's run, bots and scripts with absurd event counts are left out.
 */

const ID = "exp_0123456789abcdef0123456789abcdef";
const T0 = Date.parse("2026-03-10T10:00:00Z");
const body: ExperimentBody = {
  name: "simulated",
  scope: { type: "query", pattern: "dress", anchoring: "contains" },
  mode: "ab",
  variants: [
    { name: "control", share: 50 },
    { name: "lifted", share: 50 },
  ],
};
const experiment: Experiment = {
  ...body,
  id: ID,
  status: "stopped",
  winner: null,
  createdAt: new Date(T0).toISOString(),
  updatedAt: new Date(T0).toISOString(),
  startedAt: new Date(T0).toISOString(),
  endedAt: new Date(T0 + 3_600_000).toISOString(),
};

let db: Database;
let experiments: SqliteExperimentsRepo;
let events: SqliteEventsRepo;

beforeEach(async () => {
  db = openServiceDatabase(tempDir(), { synchronous: "NORMAL" });
  await new SqliteStoresRepo(db).create("s", 1);
  experiments = new SqliteExperimentsRepo(db);
  events = new SqliteEventsRepo(db);
  const row = {
    id: ID,
    body: JSON.stringify(body),
    status: "stopped",
    winner: null,
    createdAt: T0,
    updatedAt: T0,
    startedAt: T0,
    endedAt: T0 + 3_600_000,
  };
  await experiments.change("s", () => ({ write: { put: row }, result: null }));
});
afterEach(() => db.close());

async function results() {
  const worker = new AnalyticsWorker(
    new SqliteAnalyticsStateRepo(db),
    events,
    [new ReportCounter(), new ExperimentCounter(experiments)],
    createLogger("silent"),
  );
  await worker.catchUp(10_000_000);
  return resultsOf(experiment, await experiments.shoppers("s", ID));
}

const event = (sessionId: string, type: string, data: Record<string, unknown>, at = T0 + 60_000): NewEvent => ({
  storeId: "s",
  type,
  userId: null,
  sessionId,
  apiVersion: "1.9",
  data,
  receivedAt: at,
});

describe("experiment results from simulated shoppers", () => {
  test("clicks 20% and orders 30% likelier in one variant are reported as significant lifts of about that size", async () => {
    const rng = new Rng(4040);
    const batch: NewEvent[] = [];
    for (let i = 0; i < 30_000; i++) {
      const session = `s${i}`;
      const lifted = assignVariant(ID, session, [50, 50]) === 1;
      const listing = { query: "Red dress", productIds: ["p1", "p2"], currency: "EUR" };
      batch.push(event(session, "Search", listing));
      if (rng.chance(lifted ? 0.3 : 0.25)) batch.push(event(session, "ProductClick", { ...listing, clickProductId: "p1" }));
      if (rng.chance(lifted ? 0.039 : 0.03)) {
        const order = { orderId: `o${i}`, products: [{ id: "p1", price: 20 + rng.int(0, 80) }] };
        batch.push(event(session, "OrderComplete", order), event(session, "Purchase", order));
      }
    }
    events.append(batch);
    const r = await results();
    const [control, lifted] = r.variants;
    expect(control!.shoppers + lifted!.shoppers).toBe(30_000);
    expect(Math.abs(control!.shoppers - 15_000)).toBeLessThan(500);
    expect(control!.clickThrough.interval.low).toBeLessThan(0.25);
    expect(control!.clickThrough.interval.high).toBeGreaterThan(0.25);
    const ctr = lifted!.clickThrough.vsControl!;
    expect(ctr.significant).toBe(true);
    expect(ctr.interval.low).toBeLessThan(0.05);
    expect(ctr.interval.high).toBeGreaterThan(0.05);
    const conversion = lifted!.conversion.vsControl!;
    expect(conversion.significant).toBe(true);
    expect(conversion.difference).toBeGreaterThan(0);
    expect(lifted!.revenue.EUR!.vsControl!.difference).toBeGreaterThan(0);
    expect(r.revenueCap.EUR).toBeLessThanOrEqual(100);
  }, 60_000);

  test("an order reported twice counts once; events before the start or after the stop do not count", async () => {
    const order = { orderId: "o1", products: [{ id: "p1", price: 40 }] };
    const search = { query: "dress", productIds: ["p1"], currency: "usd" };
    events.append([
      event("early", "Search", search, T0 - 1),
      event("buyer", "Search", search),
      event("buyer", "OrderComplete", order),
      event("buyer", "Purchase", order),
      event("buyer", "AddToCart", { addProductId: "p1" }, T0 + 3_600_000),
      event("late", "Search", search, T0 + 3_600_000),
    ]);
    const r = await results();
    const buyer = r.variants[assignVariant(ID, "buyer", [50, 50])]!;
    expect(r.variants.reduce((n, v) => n + v.shoppers, 0)).toBe(1);
    expect(buyer.revenue.USD).toMatchObject({ shoppers: 1, perShopper: 40 });
    expect(buyer.addToCart.shoppers).toBe(0);
  });

  test("bots and shoppers sending more than the threshold of events are excluded, and counted", async () => {
    const search = { query: "dress", productIds: ["p1"] };
    const batch = [
      event("bot", "SiteView", { userAgent: "Mozilla/5.0 (compatible; bingbot/2.0)" }),
      event("bot", "Search", search),
      event("person", "Search", search),
      event("nothing-found", "Search", { query: "dress", productIds: [] }),
      event("elsewhere", "Search", { query: "shoes", productIds: ["p1"] }),
    ];
    for (let i = 0; i <= MAX_EVENTS_PER_SHOPPER; i++) batch.push(event("script", "Search", search));
    events.append(batch);
    const r = await results();
    expect(r.excluded).toEqual({ bots: 1, tooManyEvents: 1, emptySearches: 1 });
    expect(r.variants.reduce((n, v) => n + v.shoppers, 0)).toBe(1);
  });
});

describe("events that name their variant", () => {
  test("count for the variant they name, not the shopper's assignment; another experiment's or an unknown name falls back to it", async () => {
    const inControl = Array.from({ length: 400 }, (_, i) => `n${i}`).filter((s) => assignVariant(ID, s, [50, 50]) === 0);
    const named = { query: "Red dress", productIds: ["p1"], experimentId: ID, variant: "lifted" };
    const batch: NewEvent[] = [];
    inControl.forEach((session, i) => {
      if (i % 3 === 0) batch.push(event(session, "Search", named));
      else if (i % 3 === 1) batch.push(event(session, "Search", { ...named, experimentId: `exp_${"f".repeat(32)}` }));
      else batch.push(event(session, "Search", { ...named, variant: "no such variant" }));
    });
    events.append(batch);
    const [control, lifted] = (await results()).variants;
    expect(lifted!.shoppers).toBe(Math.ceil(inControl.length / 3));
    expect(control!.shoppers).toBe(inControl.length - lifted!.shoppers);
  });
});

describe("interleaving credits", () => {
  async function interleaved(clickB: number, seed: number) {
    const rng = new Rng(seed);
    const batch: NewEvent[] = [];
    for (let i = 0; i < 600; i++) {
      const session = `i${i}`;
      const listing = { query: "Red dress", productIds: ["a1", "b1"], experimentId: ID, variant: "interleaved" };
      batch.push(event(session, "Search", listing));
      // Each shopper clicks once or twice; each click lands on a product ranking B placed with chance clickB.
      for (let c = 0; c < 1 + rng.int(0, 1); c++) {
        const team = rng.chance(clickB) ? "B" : "A";
        batch.push(event(session, "ProductClick", { ...listing, clickProductId: `${team.toLowerCase()}1`, interleavedFrom: team }));
      }
    }
    events.append(batch);
    const shoppers = await (async () => {
      await results();
      return experiments.shoppers("s", ID);
    })();
    return resultsOf({ ...experiment, mode: "interleaving" }, shoppers).interleaving!;
  }

  test("shoppers who click what ranking B placed more often give B the credit and a significant sign test", async () => {
    const r = await interleaved(0.6, 7);
    expect(r.credits.B).toBeGreaterThan(r.credits.A);
    expect(r.shoppers.preferB).toBeGreaterThan(r.shoppers.preferA);
    expect(r.shoppers.preferA + r.shoppers.preferB + r.shoppers.ties).toBe(600);
    expect(r.pValue!).toBeLessThan(0.001);
    expect(r.significant).toBe(true);
    expect(r.winner).toBe("lifted");
  });

  test("clicks that favour neither ranking leave the test not significant, and an A/B experiment reports no interleaving", async () => {
    const r = await interleaved(0.5, 8);
    expect(r.significant).toBe(false);
    expect(r.winner).toBeNull();
    expect(resultsOf(experiment, []).interleaving).toBeNull();
  });
});
