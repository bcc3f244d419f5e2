import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { ofLoggedCategory } from "../eval/judgments.ts";
import { demoProducts } from "./support/demo-products.ts";
import { getJson, indexProducts, search } from "./support/search-client.ts";
import { reopenTestServer, startTestServer, tempDir, type TestServer } from "./support/test-server.ts";

/*
 * Words learned from the store itself (issue 37), through the real server: the meaning learned from the catalog,
 * its shoppers' sessions (a search that found nothing, then a click after a rewording) and the queries it imported
 * with what they led to recovers a search that finds nothing, said as such, and proposes synonym sets a
 * merchandiser accepts with one request. Nothing is downloaded; the model is trained on the server's own thread.
 */

const CATALOG_SIZE = 4000;
let s: TestServer;
let byId: Map<string, Product>;

type Trained = { trained: boolean; words?: number; products?: number; bytes?: number };
type Proposal = {
  id: string;
  input: string;
  synonyms: string[];
  evidence: { searches: number; noResults: number; closeness: number[]; source: string };
};

const train = async () => (await s.call("admin", "POST", "/1.9/meaning/train")).json() as Promise<Trained>;

/** A shopper's session as the widget reports it: a search that finds nothing, a reworded one, a click on its result. */
async function rewordedSession(session: string, nothing: string, reworded: string, clicked: string): Promise<void> {
  const locale = { region: "IN", language: "en", currency: "INR" };
  const listing = { productIds: [], facets: [], pageSize: 24, sortBy: "", page: 1, ...locale };
  const events = [
    { type: "Search", data: { ...listing, query: nothing, totalProducts: 0 } },
    { type: "Search", data: { ...listing, query: reworded, productIds: [clicked], totalProducts: 1 } },
    { type: "ProductClick", data: { ...listing, query: reworded, productIds: [clicked], clickProductId: clicked } },
  ].map((e) => ({ ...e, userId: `u-${session}`, sessionId: session, storeId: s.storeId }));
  const res = await s.call("analytics", "POST", "/1.9/tracking", events);
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  s = await startTestServer({ RATE_LIMIT_BROWSER_PER_SECOND: "0" });
  const catalog = demoProducts(CATALOG_SIZE);
  byId = new Map(catalog.map((p) => [p.id, p]));
  await indexProducts(s, catalog);
}, 120_000);
afterAll(() => s?.stop());

describe("learned meaning", () => {
  test("is the store's admins' to see and train; a shopper's key gets 401", async () => {
    expect((await getJson(s, "/meaning", {}, "search")).status).toBe(401);
    expect((await s.call("search", "POST", "/1.9/meaning/train")).status).toBe(401);
    expect((await getJson(s, "/synonym-proposals", {}, "search")).status).toBe(401);
    const trained = await train();
    expect(trained).toMatchObject({ trained: true, products: CATALOG_SIZE });
    expect(trained.bytes!).toBeLessThan(30 * 1024 * 1024);
    expect((await getJson<Trained>(s, "/meaning", {}, "admin")).body.trained).toBe(true);
  });

  test("an import of queries trains the store's meaning again by itself, once the store has been quiet a few seconds", async () => {
    const before = (await getJson<{ trainedAt: string }>(s, "/meaning", {}, "admin")).body.trainedAt;
    expect(
      (await s.call("admin", "POST", "/1.9/query-log", [{ query: "orciani", searches: 25, categories: ["Accessories > Men"] }])).status,
    ).toBe(200);
    const after = await until(async () => {
      const { body } = await getJson<{ trainedAt: string }>(s, "/meaning", {}, "admin");
      return body.trainedAt !== before ? body.trainedAt : null;
    }, 30_000);
    expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
  }, 40_000);

  // The threads of this process (the test server runs in it) that train meaning: Linux names them by their module.
  const meaningThreads = () =>
    readdirSync("/proc/self/task").filter((t) => readFileSync(`/proc/self/task/${t}/comm`, "utf8").startsWith("meaning-thread")).length;

  test.skipIf(!existsSync("/proc/self/task"))(
    "the thread that trains ends once no training waits, and the next training starts it again and learns the same",
    async () => {
      const first = await train();
      expect(await until(async () => (meaningThreads() === 0 ? true : null))).toBe(true);
      const second = await train();
      const size = ({ trained, words, products, bytes }: Trained) => ({ trained, words, products, bytes });
      expect(size(second)).toEqual(size(first));
      expect(await until(async () => (meaningThreads() === 0 ? true : null))).toBe(true);
      expect((await getJson<Trained>(s, "/meaning", {}, "admin")).body).toMatchObject({ trained: true, products: CATALOG_SIZE });
    },
  );

  test("a brand the catalog lacks, imported with the categories it led to, recovers products of those categories, said as such", async () => {
    const imported = await s.call("admin", "POST", "/1.9/query-log", [
      { query: "moncler", searches: 55, categories: ["Men > Clothing", "Women > Clothing"] },
      { query: "zanellato", searches: 14, categories: ["Women > Bags"] },
    ]);
    expect(imported.status).toBe(200);
    await train();
    for (const [query, categories] of [
      ["moncler", ["Men > Clothing", "Women > Clothing"]],
      ["zanellato", ["Women > Bags"]],
    ] as const) {
      const body = await search(s, { query, pageSize: 10, returnFacets: true });
      expect({ query, recovered: body.recovered, fallback: body.fallback }).toEqual({ query, recovered: true, fallback: true });
      expect(body.totalProductCount).toBeLessThanOrEqual(100);
      const shown = body.products.map((p) => byId.get(p.productId)!);
      expect({ query, relevant: shown.filter((p) => ofLoggedCategory(p, categories)).length }).toEqual({ query, relevant: shown.length });
      // The recovered set is a result like any other: facets count it (a product with no gender counts for none).
      const genders = body.facets.find((f) => f.key === "gender")!.values.reduce((n, v) => n + v.count, 0);
      expect(genders).toBeGreaterThan(0);
      expect(genders).toBeLessThanOrEqual(body.totalProductCount);
    }
    // A word nothing taught it stays a dead end the widget fills with popular searches and categories.
    expect((await search(s, { query: "qzxvwkj", pageSize: 10 })).recovered).toBeUndefined();
  });

  test("shoppers who reworded a search that found nothing teach it what the word meant, and the merchandiser is offered the synonym", async () => {
    const sunglasses = [...byId.values()].filter((p) => /^sunglasses$/i.test(p.categories?.at(-1) ?? ""));
    expect(sunglasses.length).toBeGreaterThan(5);
    for (let i = 0; i < 12; i++) await rewordedSession(`sess-${i}`, "sunnies", "sunglasses", sunglasses[i % sunglasses.length]!.id);
    await train();
    const body = await search(s, { query: "sunnies", pageSize: 10 });
    expect(body.recovered).toBe(true);
    const shown = body.products.map((p) => byId.get(p.productId)!);
    expect(shown.filter((p) => /eyewear|sunglass/i.test((p.categories ?? []).join(" "))).length).toBeGreaterThanOrEqual(8);

    // The searches that found nothing are evidence the proposals cite; the reports count them once analytics ran.
    const proposals = await until(async () => {
      const { body } = await getJson<{ proposals: Proposal[] }>(s, "/synonym-proposals", {}, "admin");
      return body.proposals.find((p) => p.input === "sunnies") ?? null;
    });
    expect(proposals.synonyms).toContain("sunglass");
    expect(proposals.evidence.noResults).toBeGreaterThanOrEqual(12);
    expect(proposals.evidence.source).toBe("searches");
    // One request accepts it; the word then finds the synonym's products as a match, and is proposed no more.
    const accepted = await s.call("admin", "PUT", `/1.9/synonyms/${proposals.id}`, {
      input: proposals.input,
      synonyms: proposals.synonyms,
    });
    expect(accepted.status).toBe(200);
    const after = await search(s, { query: "sunnies", pageSize: 10 });
    expect(after.recovered).toBeUndefined();
    expect(
      after.products.map((p) => byId.get(p.productId)!).filter((p) => !/eyewear|sunglass/i.test((p.categories ?? []).join(" "))),
    ).toEqual([]);
    const again = await getJson<{ proposals: Proposal[] }>(s, "/synonym-proposals", {}, "admin");
    expect(again.body.proposals.some((p) => p.input === "sunnies")).toBe(false);
  });
});

test("a restart learns each store's meaning by itself once the store's index has loaded", async () => {
  const dir = tempDir();
  const first = await startTestServer({}, dir);
  await indexProducts(first, demoProducts(300));
  await first.stop();
  const again = await reopenTestServer(first);
  try {
    // Nothing asks for it: the warm-up tells the learners of every store once the indexes are loaded.
    const trained = await until(async () => {
      const { body } = await getJson<Trained>(again, "/meaning", {}, "admin");
      return body.trained ? body : null;
    }, 30_000);
    expect(trained.products).toBe(300);
  } finally {
    await again.stop();
  }
}, 60_000);

async function until<T>(probe: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error("timed out");
    await Bun.sleep(200);
  }
}
