import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { assignVariant } from "../src/modules/experiments/assignment.ts";
import { wearable } from "./support/fixtures.ts";
import { getJson, indexProducts } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * A running experiment beyond search, through the real server: similar products, complete-the-look, the widget's
 * configuration and suggestions take the shopper's variant and name it; a query scope reaches suggestions by the
 * typed text but not product pages; an interleaving experiment leaves these answers as the store has them.
 */

type Tagged = { experiment?: { id: string; variant: string } };
type Similar = Tagged & { facets: { key: string; shownValues: number }[] };
type Looks = Tagged & {
  ctlProducts: unknown[][];
  explain?: { pinned: boolean; pieces: { composed: number; evidence: number; parts: { price: number } }[] }[];
};
type Config = Tagged & { pageSize: number; facetsOpen: number };
type Suggestions = Tagged & { redirect?: string };

const item = (id: string, categories: string[], colour: string, price: number) =>
  wearable(id, categories, colour, price, { brand: "Roadster" });
const JEANS = ["Apparel", "Bottomwear", "Jeans"];
const SHIRTS = ["Apparel", "Topwear", "Shirts"];
const SHOES = ["Footwear", "Shoes", "Casual Shoes"];

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await indexProducts(s, [
    item("source", SHIRTS, "Navy Blue", 1000),
    item("shirt-white", SHIRTS, "White", 1100),
    item("shirt-grey", SHIRTS, "Grey", 900),
    item("jeans-blue", JEANS, "Blue", 1200),
    item("jeans-black", JEANS, "Black", 1100),
    item("chinos-beige", ["Apparel", "Bottomwear", "Trousers"], "Beige", 1300),
    item("sneakers-white", SHOES, "White", 2000),
    item("loafers-brown", ["Footwear", "Shoes", "Formal Shoes"], "Brown", 2500),
  ]);
  await admin("PATCH", "/settings", { widget: { facetsOpen: 2 } });
  // Sends typeahead to the jeans page, for the shoppers of the variants that list it.
  await admin("PUT", "/rules/jeans-page", {
    conditions: [{ pattern: "jeans", anchoring: "is" }],
    consequence: { redirect: "https://shop.example/jeans" },
  });
}, 60_000);
afterAll(() => s?.stop());

async function admin<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await s.call("admin", method, `/1.9${path}`, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function ok<T>(path: string, params: Record<string, string>, kind: "search" | "admin" = "search"): Promise<T> {
  const { status, body } = await getJson<T>(s, path, params, kind);
  expect(status).toBe(200);
  return body;
}

/** A shopper id the assignment puts in the variant at `index` of a 50/50 experiment. */
function shopperIn(experimentId: string, index: number, prefix: string): string {
  for (let i = 0; ; i++) if (assignVariant(experimentId, `${prefix}${i}`, [50, 50]) === index) return `${prefix}${i}`;
}

/** Starts a 50/50 experiment of a control (no overrides) and one variant; answers a shopper in each. */
async function running(
  name: string,
  scope: object,
  variant: { name: string; overrides: object },
  mode = "ab",
): Promise<{ id: string; control: string; other: string; stop: () => Promise<unknown> }> {
  const variants = [
    { name: "control", share: 50 },
    { ...variant, share: 50 },
  ];
  const { id } = await admin<{ id: string }>("POST", "/experiments", { name, scope, mode, variants });
  await admin("POST", `/experiments/${id}/start`);
  return { id, control: shopperIn(id, 0, "c"), other: shopperIn(id, 1, "b"), stop: () => admin("POST", `/experiments/${id}/stop`) };
}

describe("an experiment on every search and page", () => {
  test("similar products, looks and the widget's configuration take the shopper's variant and name it", async () => {
    const e = await running(
      "Denser pages",
      { type: "all" },
      {
        name: "dense",
        overrides: {
          settings: { facetShownValues: 1, widget: { pageSize: 7 } },
          looks: { looks: 1, weights: { colour: 0, occasion: 0, season: 0, price: 1 } },
        },
      },
    );

    const similarC = await ok<Similar>("/similarity", { productId: "source", userId: e.control });
    const similarB = await ok<Similar>("/similarity", { productId: "source", userId: e.other });
    expect(similarC.experiment).toEqual({ id: e.id, variant: "control" });
    expect(similarB.experiment).toEqual({ id: e.id, variant: "dense" });
    expect(similarB.facets.every((f) => f.shownValues === 1)).toBe(true);
    expect(similarC.facets.some((f) => f.shownValues > 1)).toBe(true);

    const looksC = await ok<Looks>("/ctl", { productId: "source", userId: e.control });
    const looksB = await ok<Looks>("/ctl", { productId: "source", explain: "true", userId: e.other }, "admin");
    expect(looksC.experiment).toEqual({ id: e.id, variant: "control" });
    expect(looksC.ctlProducts.length).toBeGreaterThan(1);
    expect(looksB.experiment).toEqual({ id: e.id, variant: "dense" });
    expect(looksB.ctlProducts).toHaveLength(1);
    // Price alone weighs in the variant's composed score.
    for (const piece of looksB.explain![0]!.pieces) expect(piece.composed).toBeCloseTo(piece.parts.price, 2);

    const configC = await ok<Config>("/widget-config", { userId: e.control });
    const configB = await ok<Config>("/widget-config", { userId: e.other });
    expect(configC.experiment).toEqual({ id: e.id, variant: "control" });
    expect(configB).toMatchObject({ experiment: { id: e.id, variant: "dense" }, pageSize: 7, facetsOpen: 2 });
    expect(configC.pageSize).not.toBe(7);
    // Each shopper's configuration has its own tag, so a browser never revalidates one shopper's with another's.
    const etag = async (userId: string) => (await s.call("search", "GET", `/1.9/widget-config?userId=${userId}`)).headers.get("etag");
    expect(await etag(e.control)).not.toBe(await etag(e.other));

    // Naming no shopper: the control's behaviour, and no variant named.
    const anonymous = await ok<Config>("/widget-config", {});
    expect(anonymous.experiment).toBeUndefined();
    expect(anonymous.pageSize).toBe(configC.pageSize);
    expect((await getJson(s, "/widget-config", { userId: "not an id!" })).status).toBe(400);

    // Suggestions are covered too: their answer names the variant.
    expect((await ok<Suggestions>("/suggestions", { query: "jea", userId: e.other })).experiment).toEqual({ id: e.id, variant: "dense" });
    await e.stop();
    expect((await ok<Similar>("/similarity", { productId: "source", userId: e.other })).experiment).toBeUndefined();
    expect((await ok<Config>("/widget-config", { userId: e.other })).pageSize).toBe(configC.pageSize);
  });

  test("ending with a variant's widget settings keeps the store's other widget settings", async () => {
    const e = await running("Seven a row", { type: "all" }, { name: "seven", overrides: { settings: { widget: { pageSize: 7 } } } });
    await admin("POST", `/experiments/${e.id}/end`, { winner: "seven" });
    expect(await admin("GET", "/settings")).toMatchObject({ widget: { facetsOpen: 2, pageSize: 7 } });
    await admin("PATCH", "/settings", { widget: { facetsOpen: 2 } });
  });

  test("a variant's looks may leave out what shoppers taught: only the composed score counts", async () => {
    const order = (n: number) => ({
      type: "OrderComplete",
      sessionId: `buyer-${n}`,
      data: { orderId: `order-${n}`, products: ["source", "jeans-black"].map((id) => ({ id, price: 1000, qty: 1 })) },
    });
    expect((await s.call("analytics", "POST", "/1.9/tracking", [1, 2, 3].map(order))).status).toBe(200);
    const e = await running("Composed only", { type: "all" }, { name: "composed", overrides: { looks: { shopperEvidence: false } } });
    const evidence = async (userId: string) => {
      const answer = await ok<Looks>("/ctl", { productId: "source", explain: "true", userId }, "admin");
      return answer.explain!.flatMap((look) => look.pieces).reduce((sum, piece) => sum + piece.evidence, 0);
    };
    expect(await evidence(e.control)).toBeGreaterThan(0);
    expect(await evidence(e.other)).toBe(0);
    await e.stop();
  });
});

describe("an experiment on some queries", () => {
  test("suggestions take the variant of the typed text's experiment: its rules decide the redirect; product pages are not covered", async () => {
    const e = await running(
      "Jeans page",
      { type: "query", pattern: "jeans", anchoring: "startsWith" },
      { name: "redirect", overrides: { rules: ["jeans-page"] } },
    );
    const c = await ok<Suggestions>("/suggestions", { query: "jeans", userId: e.control });
    const b = await ok<Suggestions>("/suggestions", { query: "jeans", sessionId: e.other });
    expect(c).toMatchObject({ experiment: { id: e.id, variant: "control" } });
    expect(c.redirect).toBeUndefined();
    expect(b).toMatchObject({ experiment: { id: e.id, variant: "redirect" }, redirect: "https://shop.example/jeans" });
    // Outside the scope, or naming no shopper: the store's rules, and no variant named.
    expect((await ok<Suggestions>("/suggestions", { query: "shirt", userId: e.other })).experiment).toBeUndefined();
    const anonymous = await ok<Suggestions>("/suggestions", { query: "jeans" });
    expect(anonymous.experiment).toBeUndefined();
    expect(anonymous.redirect).toBeUndefined();
    expect((await getJson(s, "/suggestions", { query: "jeans", userId: "no spaces" })).status).toBe(400);
    // A product page has no query: the experiment does not cover it.
    expect((await ok<Similar>("/similarity", { productId: "source", userId: e.other })).experiment).toBeUndefined();
    expect((await ok<Looks>("/ctl", { productId: "source", userId: e.other })).experiment).toBeUndefined();
    await e.stop();
    expect((await ok<Suggestions>("/suggestions", { query: "jeans", userId: e.control })).redirect).toBe("https://shop.example/jeans");
  });

  test("an interleaving experiment compares rankings of a results list: other answers are the store's own", async () => {
    const e = await running(
      "Ranking",
      { type: "all" },
      { name: "b", overrides: { settings: { facetShownValues: 1, widget: { pageSize: 7 } } } },
      "interleaving",
    );
    expect((await ok<Similar>("/similarity", { productId: "source", userId: e.other })).experiment).toBeUndefined();
    expect((await ok<Config>("/widget-config", { userId: e.other })).experiment).toBeUndefined();
    expect((await ok<Suggestions>("/suggestions", { query: "jea", userId: e.other })).experiment).toBeUndefined();
    await e.stop();
  });
});
