import { describe, expect, test } from "bun:test";
import { Rng } from "../../demo-store/src/catalog/seeded-random.ts";
import type { StoredEvent } from "../src/modules/events/storage/events-repository.ts";
import { assignVariant } from "../src/modules/experiments/assignment.ts";
import { resultsOf } from "../src/modules/experiments/experiment-results.ts";
import type { Experiment } from "../src/modules/experiments/experiment-schema.ts";
import { MAX_EVENTS_PER_SHOPPER, tallyEvent, type ShopperTally } from "../src/modules/experiments/experiment-tally.ts";

/*
 * The results an experiment reports, from simulated shoppers' events (a fixed seed): a lift built into one
 * variant's behaviour comes out as a significant difference of about its size, and the shoppers the results must
 * not count (bots, scripts with absurd event counts) are left out and counted as such.
 */

const experiment: Experiment = {
  id: "exp_0123456789abcdef0123456789abcdef",
  name: "simulated",
  scope: { type: "all" },
  mode: "ab",
  variants: [
    { name: "control", share: 50 },
    { name: "lifted", share: 50 },
  ],
  status: "running",
  winner: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  startedAt: "2026-01-01T00:00:00.000Z",
  endedAt: null,
};

let seq = 0;
const event = (type: string, sessionId: string, data: Record<string, unknown>): StoredEvent => ({
  seq: ++seq,
  type,
  userId: null,
  sessionId,
  apiVersion: "1.9",
  data,
  receivedAt: 0,
});

function tally(events: readonly StoredEvent[]): Map<string, ShopperTally> {
  const tallies = new Map<string, ShopperTally>();
  for (const e of events) tallyEvent(tallies, e.sessionId!, e, experiment.scope);
  return tallies;
}

describe("experiment results from simulated shoppers", () => {
  test("clicks 20% and orders 30% likelier in one variant are reported as significant lifts of about that size", () => {
    const rng = new Rng(4040);
    const events: StoredEvent[] = [];
    for (let i = 0; i < 30_000; i++) {
      const session = `s${i}`;
      const lifted = assignVariant(experiment.id, session, [50, 50]) === 1;
      const listing = { query: "dress", productIds: ["p1", "p2"], currency: "EUR" };
      events.push(event("Search", session, listing));
      if (rng.chance(lifted ? 0.3 : 0.25)) events.push(event("ProductClick", session, { ...listing, clickProductId: "p1" }));
      if (rng.chance(lifted ? 0.039 : 0.03)) {
        const order = { orderId: `o${i}`, products: [{ id: "p1", price: 20 + rng.int(0, 80) }] };
        events.push(event("OrderComplete", session, order), event("Purchase", session, order));
      }
    }
    const results = resultsOf(experiment, tally(events));
    const [control, lifted] = results.variants;
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
    expect(results.revenueCap.EUR).toBeLessThanOrEqual(100);
  });

  test("bots and shoppers sending more than the threshold of events are excluded, and counted", () => {
    const events: StoredEvent[] = [
      event("SiteView", "bot", { userAgent: "Mozilla/5.0 (compatible; bingbot/2.0)" }),
      event("Search", "bot", { query: "dress", productIds: ["p1"] }),
      event("Search", "person", { query: "dress", productIds: ["p1"] }),
      event("Search", "nothing-found", { query: "dress", productIds: [] }),
    ];
    for (let i = 0; i <= MAX_EVENTS_PER_SHOPPER; i++) events.push(event("Search", "script", { query: "dress", productIds: ["p1"] }));
    const results = resultsOf(experiment, tally(events));
    expect(results.excluded).toEqual({ bots: 1, tooManyEvents: 1, emptySearches: 1 });
    expect(results.variants.reduce((n, v) => n + v.shoppers, 0)).toBe(1);
  });
});
