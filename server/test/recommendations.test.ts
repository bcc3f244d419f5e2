import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { RecommendationsReport, RecommendationsResponse } from "@storefront-search/contract";
import { product } from "./support/fixtures.ts";
import { getJson, indexProducts, trackAs } from "./support/search-client.ts";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres-cluster.ts";
import { errorBody, startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * The recommendation models through the real server: events go in through POST /tracking, the analytics worker
 * counts them, GET /recommendations/{placement} answers, on either durable state (the embedded SQLite and
 * PostgreSQL). Trending compares days, so the earlier days' events are written into the SQLite events table as
 * ingest would have stored them, with their past times.
 */

/** The state a server keeps: SQLite in its data dir, or a database of a throwaway PostgreSQL cluster. */
const STATES: [name: string, env: () => Promise<Record<string, string>>][] = [
  ["SQLite", async () => ({})],
  [
    "PostgreSQL",
    async () => ({ DATABASE_URL: await (postgres ??= await startPostgresCluster()).createDatabase(), SINGLE_REPLICA: "true" }),
  ],
];
let postgres: PostgresCluster | undefined;
afterAll(() => postgres?.stop());

const DAY = 86_400_000;
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i + 1).padStart(2, "0")}`);
const SHIRTS = ids("shirt", 10);
const SHOES = ids("shoe", 10);
const CATALOG = [
  ...SHIRTS.map((id) => product(id, { name: `Linen shirt ${id.slice(-2)}` })),
  ...SHOES.map((id, i) =>
    product(id, {
      name: `Running shoe ${id.slice(-2)}`,
      brand: i < 5 ? "Nike" : "Puma",
      categories: ["Footwear", "Shoes", "Casual Shoes"],
    }),
  ),
  ...ids("trousers", 3).map((id) =>
    product(id, { name: `Chino trousers ${id.slice(-2)}`, categories: ["Apparel", "Bottomwear", "Trousers"] }),
  ),
];

type Event = [type: string, data: Record<string, unknown>];

/** Waits until the analytics worker has counted what was sent (reports catch up first). */
async function counted(s: TestServer): Promise<void> {
  expect((await getJson(s, "/reports/overview", {}, "admin")).status).toBe(200);
}

async function recommend(s: TestServer, placement: string, params: Record<string, string>): Promise<RecommendationsResponse> {
  const { status, body } = await getJson<RecommendationsResponse>(s, `/recommendations/${placement}`, params);
  expect(status).toBe(200);
  return body;
}

const idsOf = (r: RecommendationsResponse) => r.products.map((p) => p.product.productId);
const view = (id: string, extra: Record<string, unknown> = {}): Event => ["ProductClick", { clickProductId: id, ...extra }];
const order = (orderId: string, products: string[]): Event => [
  "OrderComplete",
  { orderId, products: products.map((id) => ({ id, price: 10 })) },
];

for (const [state, env] of STATES)
  describe(`recommendations (${state})`, () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(await env());
      await indexProducts(s, CATALOG);
    }, 60_000);
    afterAll(() => s.stop());

    describe("day one, without events", () => {
      test("trending falls back to the catalog's most bought, best rated and newest; in a category too", async () => {
        const all = await recommend(s, "trending", { pageSize: "5" });
        expect(all).toMatchObject({ model: "trending", fallback: "popular" });
        expect(all.products.length).toBe(5);
        expect(all.products[0]!.product.price).toHaveProperty("first");
        const shoes = await recommend(s, "trending", { category: "Footwear > Shoes", pageSize: "30" });
        expect(idsOf(shoes).sort()).toEqual(SHOES);
      });

      test("bought together falls back to complete the look; for you to trending; recently viewed is empty", async () => {
        expect(await recommend(s, "bought-together", { productId: SHIRTS[0]! })).toMatchObject({
          model: "bought-together",
          fallback: "complete-the-look",
        });
        const { body: looks } = await getJson<{ ctlProducts: { productId: string }[][] }>(s, "/ctl", { productId: SHIRTS[0]! });
        const pieces = [...new Set(looks.ctlProducts.flat().map((p) => p.productId))];
        expect(pieces.length).toBeGreaterThan(0);
        expect(idsOf(await recommend(s, "bought-together", { productId: SHIRTS[0]!, pageSize: "100" }))).toEqual(pieces);
        expect(await recommend(s, "for-you", { userId: "newcomer" })).toMatchObject({ model: "for-you", fallback: "trending" });
        expect(await recommend(s, "recently-viewed", { sessionId: "newcomer" })).toEqual({
          model: "recently-viewed",
          fallback: null,
          products: [],
        });
      });
    });

    describe("bought together", () => {
      test("five orders of A and B make B the first of A; a product in every order comes after it; one order makes no pair", async () => {
        const [a, b, everyone, d] = [SHIRTS[0]!, SHIRTS[1]!, SHIRTS[2]!, SHIRTS[3]!];
        for (let i = 0; i < 5; i++) await trackAs(s, `pair-${i}`, [order(`ab-${i}`, [a, b, everyone])]);
        // Bought with A more often than B is, but bought by everyone.
        await trackAs(s, "pair-5", [order("a-everyone", [a, everyone])]);
        for (let i = 0; i < 10; i++) await trackAs(s, `other-${i}`, [order(`other-${i}`, [SHIRTS[5]!, everyone])]);
        await trackAs(s, "once", [order("a-d", [a, d])]);
        await counted(s);
        const together = await recommend(s, "bought-together", { productId: a });
        expect(together.fallback).toBeNull();
        expect(idsOf(together)).toEqual([b, everyone]);
        // A page past the model's last product is empty: the model answered, not its fallback.
        expect(await recommend(s, "bought-together", { productId: a, from: "2" })).toEqual({
          model: "bought-together",
          fallback: null,
          products: [],
        });
        expect(idsOf(await recommend(s, "bought-together", { productId: b }))).toEqual([a, everyone]);
      });

      test("an unknown product is 404, a missing productId 400", async () => {
        const res = await s.call("search", "GET", "/1.9/recommendations/bought-together?productId=nope");
        expect(res.status).toBe(404);
        expect((await errorBody(res)).message).toContain("nope");
        const missing = await s.call("search", "GET", "/1.9/recommendations/bought-together");
        expect(missing.status).toBe(400);
        expect((await errorBody(missing)).details).toEqual([{ path: "query.productId", problem: "is required" }]);
      });
    });

    describe("recently viewed and for you", () => {
      test("a shopper's views come back newest first, once each; erasing the user removes them", async () => {
        for (const id of [SHIRTS[6]!, SHIRTS[7]!, SHOES[9]!, SHIRTS[6]!]) {
          await trackAs(s, "browser", [view(id)]);
          await Bun.sleep(5);
        }
        await counted(s);
        const expected = [SHIRTS[6]!, SHOES[9]!, SHIRTS[7]!];
        expect(idsOf(await recommend(s, "recently-viewed", { userId: "browser" }))).toEqual(expected);
        expect(idsOf(await recommend(s, "recently-viewed", { sessionId: "browser-visit", pageSize: "2" }))).toEqual(expected.slice(0, 2));
        expect(idsOf(await recommend(s, "recently-viewed", { userId: "someone-else" }))).toEqual([]);
        expect((await s.call("admin", "DELETE", "/1.9/users/browser")).status).toBe(200);
        expect(idsOf(await recommend(s, "recently-viewed", { userId: "browser" }))).toEqual([]);
        expect(idsOf(await recommend(s, "recently-viewed", { sessionId: "browser-visit" }))).toEqual([]);
      });

      test("for you: the shopper's brand first, without what they bought; a new shopper gets trending", async () => {
        const nikes = SHOES.slice(0, 5);
        await trackAs(s, "fan", [view(nikes[0]!), view(nikes[1]!), view(nikes[2]!), order("fan-1", [nikes[0]!])]);
        await counted(s);
        const mine = await recommend(s, "for-you", { userId: "fan", pageSize: "4" });
        expect(mine.fallback).toBeNull();
        expect(idsOf(mine).length).toBe(4);
        expect(idsOf(mine).every((id) => nikes.includes(id))).toBe(true);
        expect(idsOf(mine)).not.toContain(nikes[0]!);
        expect(await recommend(s, "for-you", { userId: "stranger" })).toMatchObject({ fallback: "trending" });
      });

      test("shopper parameters are required and bounded", async () => {
        for (const [query, path] of [
          ["", "query.userId"],
          [`userId=${"x".repeat(257)}`, "query.userId"],
          ["sessionId=a%01b", "query.sessionId"],
          ["userId=u&pageSize=0", "query.pageSize"],
          ["userId=u&pageSize=101", "query.pageSize"],
          ["userId=u&from=-1", "query.from"],
        ] as const) {
          for (const placement of ["recently-viewed", "for-you"]) {
            const res = await s.call("search", "GET", `/1.9/recommendations/${placement}?${query}`);
            expect(res.status).toBe(400);
            expect((await errorBody(res)).details?.[0]?.path).toBe(path);
          }
        }
        expect((await s.call(null, "GET", "/1.9/recommendations/for-you?userId=u")).status).toBe(401);
        const long = await s.call("search", "GET", `/1.9/recommendations/trending?category=${"c".repeat(513)}`);
        expect(long.status).toBe(400);
      });
    });

    test("clicks in a placement are counted per placement in the recommendations report", async () => {
      await trackAs(s, "clicker", [
        view(SHIRTS[8]!, { placement: "trending" }),
        view(SHIRTS[9]!, { placement: "trending" }),
        view(SHOES[8]!, { placement: "for-you" }),
        view(SHOES[7]!),
      ]);
      // A placement this server does not know (a newer widget's) is kept, and not counted.
      await trackAs(s, "clicker", [view(SHIRTS[8]!, { placement: "bestsellers" })]);
      const { body } = await getJson<RecommendationsReport>(s, "/reports/recommendations", {}, "admin");
      expect(body.placements).toEqual([
        { placement: "trending", clicks: 2 },
        { placement: "bought-together", clicks: 0 },
        { placement: "recently-viewed", clicks: 0 },
        { placement: "for-you", clicks: 1 },
      ]);
    });
  });

describe("trending", () => {
  let s: TestServer;
  const [steady, rising, risingShirt, flooded] = [SHIRTS[0]!, SHOES[0]!, SHIRTS[1]!, SHOES[1]!];
  const alsoSteady = [SHIRTS[2]!, SHIRTS[3]!, SHOES[2]!];

  beforeAll(async () => {
    s = await startTestServer();
    await indexProducts(s, CATALOG);
  });
  afterAll(() => s.stop());

  /** ProductClicks of `shoppers` distinct shoppers on each product, received at `at`, stored as ingest stores them. */
  function storeViews(at: number, products: readonly string[], shoppers: number): void {
    const db = new Database(join(s.dataDir, "service.db"));
    try {
      db.exec("PRAGMA busy_timeout = 5000");
      const insert = db.query(
        "INSERT INTO events (store_id, type, received_at, user_id, session_id, api_version, data) VALUES (?, 'ProductClick', ?, ?, ?, '1.9', ?)",
      );
      db.transaction(() => {
        for (const id of products)
          for (let i = 0; i < shoppers; i++)
            insert.run(s.storeId, at, `h-${at}-${i}`, `h-${at}-${i}-visit`, JSON.stringify({ clickProductId: id }));
      })();
    } finally {
      db.close();
    }
  }

  test("a rising product beats a steadily popular one, which does not trend; one shopper's flood does not trend", async () => {
    // Seven earlier days: four shoppers a day on each steady product.
    for (let day = 2; day <= 8; day++) storeViews(Date.now() - day * DAY, [steady, ...alsoSteady], 4);
    // Today: the steady products as before; the rising ones from nothing; one shopper's 30 clicks.
    for (let i = 0; i < 4; i++)
      await trackAs(
        s,
        `today-${i}`,
        [steady, ...alsoSteady].map((id) => view(id)),
      );
    for (let i = 0; i < 3; i++) await trackAs(s, `riser-${i}`, [view(rising)]);
    for (let i = 0; i < 2; i++) await trackAs(s, `shirt-riser-${i}`, [view(risingShirt)]);
    await trackAs(
      s,
      "flooder",
      Array.from({ length: 30 }, () => view(flooded)),
    );
    await counted(s);
    const trending = await recommend(s, "trending", {});
    expect(trending).toMatchObject({ model: "trending", fallback: null });
    expect(idsOf(trending)).toEqual([rising, risingShirt]);
    // Per category.
    expect(idsOf(await recommend(s, "trending", { category: "Footwear" }))).toEqual([rising]);
    expect(idsOf(await recommend(s, "trending", { category: "Apparel > Topwear" }))).toEqual([risingShirt]);
    // A category where nothing trends: its most bought.
    const bottoms = await recommend(s, "trending", { category: "Apparel > Bottomwear" });
    expect(bottoms.fallback).toBe("popular");
    expect(idsOf(bottoms).sort()).toEqual(ids("trousers", 3));
    // For you of a new shopper is trending.
    expect(idsOf(await recommend(s, "for-you", { sessionId: "new" }))).toEqual([rising, risingShirt]);
  });
});
