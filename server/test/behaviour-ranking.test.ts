import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { product } from "./support/fixtures.ts";
import { eventually, getJson, indexProducts, search } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";
import { bothEngines } from "./support/both-engines.ts";
import { PERSONAL_FACTOR } from "../src/modules/ranking/result-reranker.ts";

/*
 * Ranking from behaviour and personalisation through the real server: events go in through POST /tracking,
 * the order comes out of GET /search. The re-rank runs in the service over the engine's order, so the whole suite
 * runs on the embedded engine and on the Typesense stand-in.
 */

const ENGINES = bothEngines();

for (const [engine, engineEnv, stopEngine] of ENGINES)
  describe(engine, () => {
    let s: TestServer;
    const SHIRTS = Array.from({ length: 12 }, (_, i) => `shirt-${String(i + 1).padStart(2, "0")}`);
    const JACKETS = Array.from({ length: 12 }, (_, i) => `jacket-${String(i + 1).padStart(2, "0")}`);
    let baseline: string[];
    let jacketBaseline: string[];

    beforeAll(async () => {
      s = await startTestServer(await engineEnv());
      await indexProducts(s, [
        ...SHIRTS.map((id) => product(id, { name: `Linen shirt ${id.slice(-2)}` })),
        ...JACKETS.map((id, i) =>
          product(id, {
            name: `Denim jacket ${id.slice(-2)}`,
            brand: i % 2 ? "Nike" : "Roadster",
            categories: ["Apparel", "Topwear", "Jackets"],
          }),
        ),
      ]);
      baseline = await order("shirt");
      jacketBaseline = await order("jacket");
    });
    afterAll(async () => {
      await s.stop();
      await stopEngine();
    });

    async function order(query: string, params: Record<string, string> = {}): Promise<string[]> {
      return (await search(s, { query, pageSize: 30, ...params })).products.map((p) => p.productId);
    }

    async function track(userId: string, sessionId: string, events: [string, Record<string, unknown>][]): Promise<void> {
      const res = await s.call(
        "analytics",
        "POST",
        "/1.9/tracking",
        events.map(([type, data]) => ({ type, data, userId, sessionId })),
      );
      expect(res.status).toBe(200);
    }

    /** A shopper's search for `query`, a click on `productId` where it is shown, and optionally its purchase. */
    function shopping(query: string, shown: string[], productId: string, orderId: string | null): [string, Record<string, unknown>][] {
      const listing = { query, productIds: shown, pageSize: 30, page: 1 };
      return [
        ["Search", { ...listing, totalProducts: shown.length }],
        ["ProductClick", { ...listing, clickProductId: productId }],
        ...(orderId ? ([["Purchase", { orderId, products: [{ id: productId, price: 10 }] }]] as [string, Record<string, unknown>][]) : []),
      ];
    }

    /** Waits until the analytics worker has counted what was sent (reports catch up first). */
    async function counted(): Promise<void> {
      expect((await getJson(s, "/reports/overview", {}, "admin")).status).toBe(200);
    }

    describe("ranking from behaviour", () => {
      test("one session's flood of clicks, carts and orders moves nothing", async () => {
        const target = baseline[7]!;
        const flood: [string, Record<string, unknown>][] = [];
        for (let i = 0; i < 40; i++) {
          flood.push(...shopping("shirt", baseline, target, `flood-${i}`));
          flood.push(["AddToCart", { query: "shirt", productIds: baseline, addProductId: target, qty: 1 }]);
        }
        await track("flooder", "flood-session", flood);
        await counted();
        expect(await order("shirt")).toEqual(baseline);
      });

      test("a product bought by several shoppers rises, by as much as their evidence warrants; other orders are untouched", async () => {
        const target = baseline[7]!;
        for (let i = 0; i < 3; i++) await track(`buyer-${i}`, `buyer-session-${i}`, shopping("shirt", baseline, target, `order-${i}`));
        await counted();
        expect(await eventually(async () => (await order("shirt")).indexOf(target) < 7, 10_000)).toBe(true);
        const ranked = await order("shirt");
        const at = ranked.indexOf(target);
        // Passing the first result would take b > ln 8 / ln 60 = 0.51 (its rank divided by 8), well above what these
        // three buyers and the flooder above give (some 12 to 16 of evidence each: b ≈ 0.3).
        expect(at).toBeGreaterThanOrEqual(1);
        expect(at).toBeLessThan(7);
        // Everything else keeps its relative order, and moves down by one place at most.
        expect(ranked.filter((id) => id !== target)).toEqual(baseline.filter((id) => id !== target));
        // Explicit sort orders do not use it; the store can turn it off.
        expect(await order("shirt", { sortBy: "namea" })).toEqual([...SHIRTS]);
        expect((await s.call("admin", "PATCH", "/1.9/settings", { behaviourRanking: false })).status).toBe(200);
        expect(await order("shirt")).toEqual(baseline);
        expect((await s.call("admin", "PATCH", "/1.9/settings", { behaviourRanking: true })).status).toBe(200);
        expect(await order("shirt")).toEqual(ranked);
      });

      test("explain=true (admin key) shows each result's engine rank, behaviour part and the places it moved", async () => {
        const { body } = await getJson<{
          explain: {
            products: {
              productId: string;
              position: number;
              reranking: { engineRank: number; behaviour: { boost: number; moved: number } };
            }[];
          };
        }>(s, "/search", { query: "shirt", explain: "true" }, "admin");
        const target = body.explain.products.find((p) => p.productId === baseline[7])!;
        expect(target.reranking.engineRank).toBe(8);
        expect(target.reranking.behaviour.boost).toBeGreaterThan(0);
        expect(target.position).toBeLessThan(8);
        expect(target.reranking.behaviour.moved).toBe(8 - target.position);
        // Those it passed went down one place each, for the same reason.
        const passed = body.explain.products.filter((p) => p.reranking.engineRank > target.position && p.reranking.engineRank < 8);
        for (const p of passed) expect(p.reranking.behaviour.moved).toBe(-1);
      });
    });

    describe("sortBy=purchase", () => {
      test("counts a shopper's purchases of a product once a day, however many orders they place", async () => {
        const order_ = (orderId: string, id: string) =>
          ["Purchase", { orderId, products: [{ id, price: 10 }] }] as [string, Record<string, unknown>];
        await track(
          "hoarder",
          "hoarder-session",
          Array.from({ length: 10 }, (_, i) => order_(`hoard-${i}`, "jacket-12")),
        );
        await track("buyer-a", "buyer-a-session", [order_("a-1", "jacket-11")]);
        await track("buyer-b", "buyer-b-session", [order_("b-1", "jacket-11")]);
        expect(
          await eventually(
            async () => (await order("jacket", { sortBy: "purchase" })).slice(0, 2).join() === "jacket-11,jacket-12",
            10_000,
          ),
        ).toBe(true);
      });
    });

    describe("personalisation", () => {
      const nikes = () => jacketBaseline.filter((id) => Number(id.slice(-2)) % 2 === 0);
      /** The order everyone gets (purchases above may have moved it from the engine's). */
      let plain: string[];

      test("a shopper who clicked one brand sees it first; a new shopper and anonymous search get the plain order", async () => {
        const clicked = nikes().slice(-3);
        // Searched once before any event: the server keeps the shopper's (empty) taste, and must drop it as it learns.
        const before = await order("jacket", { userId: "fan" });
        for (const id of clicked) await track("fan", "fan-session", shopping("jacket", jacketBaseline, id, null));
        await counted();
        expect(await order("jacket", { userId: "fan" })).not.toEqual(before);
        plain = await order("jacket");
        expect(await order("jacket", { userId: "stranger" })).toEqual(plain);
        const mine = await order("jacket", { userId: "fan" });
        expect(mine).not.toEqual(plain);
        // A Nike jacket rises to a PERSONAL_FACTOR-th of its rank at most; the first places go to Nike.
        for (const id of mine) expect(mine.indexOf(id) + 1).toBeGreaterThanOrEqual(Math.ceil((plain.indexOf(id) + 1) / PERSONAL_FACTOR));
        expect(nikes()).toContain(mine[0]!);
        // The session alone carries the visit's taste too.
        expect(await order("jacket", { sessionId: "fan-session" })).toEqual(mine);
        expect((await s.call("admin", "PATCH", "/1.9/settings", { personalisation: false })).status).toBe(200);
        expect(await order("jacket", { userId: "fan" })).toEqual(plain);
        expect((await s.call("admin", "PATCH", "/1.9/settings", { personalisation: true })).status).toBe(200);
      });

      test("DELETE /users/{userId} erases the profile and the user's events", async () => {
        const res = await s.call("admin", "DELETE", "/1.9/users/fan");
        expect(res.status).toBe(200);
        // Its two searches of "jacket" above, moments apart, are logged as one (the log coalesces a shopper's
        // repeated or typed-on query), and erased also while still held or in the log's batch.
        expect(await res.json()).toEqual({ userId: "fan", erased: { events: 6, searches: 1, sessions: 1 } });
        expect(await order("jacket", { userId: "fan" })).toEqual(plain);
        expect(await order("jacket", { sessionId: "fan-session" })).toEqual(plain);
        const { body } = await getJson<{ events: { userId: string }[] }>(s, "/events", { limit: 1000 }, "admin");
        expect(body.events.filter((e) => e.userId === "fan")).toEqual([]);
        expect((await s.call("search", "DELETE", "/1.9/users/fan")).status).toBe(401);
        expect((await s.call("admin", "DELETE", "/1.9/users/a%20b")).status).toBe(400);
      });
    });
  });
