import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { product } from "./support/fixtures.ts";
import { deleteProduct, eventually, getJson, indexProducts, searchAll, type SearchBody } from "./support/search-client.ts";
import { textStagesInSearch } from "./support/indexed-child-server.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";
import { bothEngines } from "./support/both-engines.ts";

/*
 * Query rules (merchandising) through the real server: rules go in through /{v}/rules, their effect comes out of
 * GET /search, on the embedded engine and on the Typesense stand-in.
 */

const ENGINES = bothEngines();

type Body = SearchBody & {
  redirect?: string;
  userData?: Record<string, unknown>[];
  pinnedProductIds?: string[];
  explain?: { rules: { id: string; effects: string[] }[] };
};

const DAY = 86_400_000;
const SHIRTS = Array.from({ length: 10 }, (_, i) => `shirt-${String(i + 1).padStart(2, "0")}`);

for (const [engine, engineEnv, stopEngine] of ENGINES)
  describe(engine, () => {
    let s: TestServer;

    beforeAll(async () => {
      s = await startTestServer(await engineEnv());
      await indexProducts(s, [
        ...SHIRTS.map((id, i) =>
          product(id, {
            name: `Linen shirt ${id.slice(-2)}`,
            brand: i % 2 ? "Nike" : "Roadster",
            gender: i < 8 ? "Men" : "Women",
            collections: i < 3 ? ["sale"] : [],
          }),
        ),
        product("bag-1", { name: "Leather bag", brand: "Puma", gender: "Women", categories: ["Accessories", "Bags"] }),
        product("scarf-1", { name: "Wool scarf", brand: "Nike", gender: "Women", categories: ["Accessories", "Scarves"] }),
        product("gone-1", { name: "Linen shirt discontinued", brand: "Roadster" }),
      ]);
      await deleteProduct(s, "gone-1");
      // The text stage adds words to the products as it runs: paging compares requests made one after another.
      expect(await eventually(async () => textStagesInSearch(s.dataDir), 30_000)).toBe(true);
    });
    afterAll(async () => {
      await s.stop();
      await stopEngine();
    });
    afterEach(async () => {
      for (;;) {
        const { body } = await getJson<{ rules: { id: string }[] }>(s, "/rules", { limit: 1000 }, "admin");
        if (body.rules.length === 0) break;
        for (const r of body.rules) expect((await s.call("admin", "DELETE", `/1.9/rules/${r.id}`)).status).toBe(200);
      }
    });

    async function put(id: string, rule: unknown): Promise<void> {
      const res = await s.call("admin", "PUT", `/1.9/rules/${id}`, rule);
      if (res.status !== 200) throw new Error(`PUT rule ${id}: ${res.status} ${await res.text()}`);
    }
    const query = (pattern: string, anchoring = "contains") => ({ conditions: [{ pattern, anchoring }] });
    async function find(params: Record<string, string | number | boolean>, kind: "search" | "admin" = "search"): Promise<Body> {
      const { status, body } = await getJson<Body>(s, "/search", { pageSize: 30, ...params }, kind);
      expect(status).toBe(200);
      return body;
    }
    const ids = async (params: Record<string, string | number | boolean>) => (await find(params)).products.map((p) => p.productId);

    describe("the rules API", () => {
      test("PUT answers the stored rule, GET reads it, GET /rules lists it, DELETE removes it; only the admin key", async () => {
        const rule = { ...query("summer sale", "is"), consequence: { hide: ["shirt-01"] }, description: "campaign" };
        const res = await s.call("admin", "PUT", "/1.9/rules/r-1", rule);
        expect(res.status).toBe(200);
        const saved = (await res.json()) as Record<string, unknown>;
        expect(saved).toMatchObject({ id: "r-1", ...rule, enabled: true });
        expect(typeof saved.updatedAt).toBe("string");
        expect((await getJson(s, "/rules/r-1", {}, "admin")).body).toEqual(saved);
        expect((await getJson<{ rules: unknown[]; total: number }>(s, "/rules", {}, "admin")).body).toEqual({ rules: [saved], total: 1 });
        for (const kind of ["search", "analytics"] as const) {
          expect((await s.call(kind, "GET", "/1.9/rules")).status).toBe(401);
          expect((await s.call(kind, "PUT", "/1.9/rules/r-2", rule)).status).toBe(401);
        }
        expect(await (await s.call("admin", "DELETE", "/1.9/rules/r-1")).json()).toEqual({ id: "r-1", deleted: true });
        expect((await s.call("admin", "GET", "/1.9/rules/r-1")).status).toBe(404);
        expect((await s.call("admin", "DELETE", "/1.9/rules/r-1")).status).toBe(404);
      });

      test("rules belong to their store, and are deleted with it", async () => {
        const as = (keys: { admin: string }) => ({ "x-service-store-id": "other-shop", "x-service-api-key": keys.admin });
        const first = await s.createStore("other-shop");
        const rule = { ...query("shirt"), consequence: { redirect: "/elsewhere" } };
        expect((await s.call("admin", "PUT", "/1.9/rules/theirs", rule, as(first))).status).toBe(200);
        expect((await getJson<{ total: number }>(s, "/rules", {}, "admin")).body.total).toBe(0);
        expect((await find({ query: "shirt" })).redirect).toBeUndefined();
        expect(((await (await s.call("admin", "GET", "/1.9/rules", undefined, as(first))).json()) as { total: number }).total).toBe(1);
        expect(await s.service.storeAdmin.delete("other-shop")).toBe(true);
        await Bun.sleep(5);
        const again = await s.createStore("other-shop");
        expect(await (await s.call("admin", "GET", "/1.9/rules", undefined, as(again))).json()).toEqual({ rules: [], total: 0 });
        expect((await s.call("admin", "GET", "/1.9/rules/theirs", undefined, as(again))).status).toBe(404);
      });

      test("bad rules are 400s naming the field", async () => {
        const bad = async (id: string, rule: unknown, path: string) => {
          const res = await s.call("admin", "PUT", `/1.9/rules/${id}`, rule);
          expect(res.status).toBe(400);
          const body = (await res.json()) as { message: string; details?: { path: string }[] };
          expect(body.details?.map((d) => d.path)).toContain(path);
        };
        const ok = { hide: ["x"] };
        await bad("a", { consequence: ok }, "body.conditions");
        await bad("a", { conditions: [{ pattern: "x" }], consequence: ok }, "body.conditions[0].anchoring");
        await bad("a", { conditions: [{ pattern: "!!", anchoring: "is" }], consequence: ok }, "body.conditions[0].pattern");
        await bad("a", { conditions: [{ facet: "brand:Nike" }], consequence: ok }, "body.conditions[0].facet");
        await bad("a", { conditions: Array.from({ length: 11 }, () => ({ collection: "sale" })), consequence: ok }, "body.conditions");
        await bad(
          "a",
          { ...query("x"), consequence: { pins: Array.from({ length: 51 }, (_, i) => ({ productId: `p${i}`, position: 1 })) } },
          "body.consequence.pins",
        );
        await bad("a", { ...query("x"), consequence: { pins: [{ productId: "p", position: 0 }] } }, "body.consequence.pins[0].position");
        await bad(
          "a",
          { ...query("x"), consequence: { boost: [{ filter: "designer:Nike", amount: 6 }] } },
          "body.consequence.boost[0].amount",
        );
        await bad("a", { ...query("x"), consequence: { redirect: "javascript:alert(1)" } }, "body.consequence.redirect");
        await bad("a", { ...query("x"), consequence: {} }, "body.consequence");
        await bad("a", { ...query("x"), consequence: ok, from: "2030-01-02", until: "2030-01-01" }, "body.until");
        await bad("a", { ...query("x"), consequence: { filters: ["price:50-10"] } }, "body.consequence.filters[0]");
        await bad(
          "a",
          { ...query("x"), consequence: { boost: [{ filter: "price:0-10", amount: 1 }] } },
          "body.consequence.boost[0].filter",
        );
        await bad("a", { ...query("x"), consequence: ok, color: "red" }, "body.color");
        await bad("a", { ...query("x".repeat(201)), consequence: ok }, "body.conditions[0].pattern");
        const res = await s.call("admin", "PUT", "/1.9/rules/a%20b", { ...query("x"), consequence: ok });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { details: { path: string }[] }).details[0]!.path).toBe("params.id");
        expect((await s.call("admin", "PUT", "/1.9/rules/a", "not json at all")).status).toBe(400);
      });
    });

    describe("consequences", () => {
      test("pins go to their positions, also products the query does not match; hides leave; totals count what is shown", async () => {
        const plain = await find({ query: "shirt" });
        await put("pins", {
          ...query("shirt"),
          consequence: {
            pins: [
              { productId: "bag-1", position: 1 },
              { productId: "shirt-08", position: 3 },
            ],
            hide: ["shirt-02"],
          },
        });
        const ruled = await find({ query: "shirt" });
        const order = ruled.products.map((p) => p.productId);
        expect(order[0]).toBe("bag-1");
        expect(order[2]).toBe("shirt-08");
        expect(order).not.toContain("shirt-02");
        expect(new Set(order).size).toBe(order.length);
        // bag-1 added, shirt-02 gone, shirt-08 moved (not counted twice).
        expect(ruled.totalProductCount).toBe(plain.totalProductCount);
        expect(ruled.products.length).toBe(plain.products.length);
        expect(ruled.pinnedProductIds).toEqual(["bag-1", "shirt-08"]);
        expect(plain.pinnedProductIds).toBeUndefined();
        // The rest keep the engine's order.
        const rest = plain.products.map((p) => p.productId).filter((id) => id !== "shirt-02" && id !== "shirt-08");
        expect(order.filter((id) => id !== "bag-1" && id !== "shirt-08")).toEqual(rest);
      });

      test("paging across pins: every product once, pins where they belong, page 2 repeats no pin", async () => {
        await put("paged", {
          ...query("shirt"),
          consequence: {
            pins: [
              { productId: "shirt-10", position: 1 },
              { productId: "bag-1", position: 4 },
              { productId: "scarf-1", position: 99 },
            ],
          },
        });
        const whole = await ids({ query: "shirt" });
        const paged = await searchAll(s, { query: "shirt" }, 3);
        expect(paged.products.map((p) => p.productId)).toEqual(whole);
        expect(paged.total).toBe(12);
        expect(whole[0]).toBe("shirt-10");
        expect(whole[3]).toBe("bag-1");
        // A position past the end puts the pin at the end.
        expect(whole.at(-1)).toBe("scarf-1");
        const page2 = await find({ query: "shirt", from: 3, pageSize: 3 });
        expect(page2.products[0]!.productId).toBe("bag-1");
        expect(page2.pinnedProductIds).toEqual(["bag-1"]);
        expect(page2.products.map((p) => p.productId)).not.toContain("shirt-10");
      });

      test("pins count in facets, hidden products do not; a pin that fails the shopper's facet is not shown", async () => {
        const plain = await find({ query: "shirt", returnFacets: true });
        const count = (body: SearchBody, key: string, name: string) =>
          body.facets.find((f) => f.key === key)?.values.find((v) => v.name === name)?.count ?? 0;
        expect(count(plain, "designer", "Puma")).toBe(0);
        await put("facets", { ...query("shirt"), consequence: { pins: [{ productId: "bag-1", position: 2 }], hide: ["shirt-01"] } });
        const ruled = await find({ query: "shirt", returnFacets: true });
        expect(count(ruled, "designer", "Puma")).toBe(1);
        // shirt-01 is a Roadster shirt.
        expect(count(ruled, "designer", "Roadster")).toBe(count(plain, "designer", "Roadster") - 1);
        const nike = await find({ query: "shirt", facets: "designer:Nike" });
        expect(nike.products.map((p) => p.productId)).not.toContain("bag-1");
        expect(nike.products.every((p) => p.designer === "Nike")).toBe(true);
        expect(nike.pinnedProductIds).toBeUndefined();
        const puma = await find({ query: "shirt", facets: "designer:Puma" });
        expect(puma.products.map((p) => p.productId)).toEqual(["bag-1"]);
        expect(puma.totalProductCount).toBe(1);
      });

      test("a pin of a product that no longer exists is skipped; the rule's other pins work", async () => {
        await put("gone", {
          ...query("shirt"),
          consequence: {
            pins: [
              { productId: "gone-1", position: 1 },
              { productId: "no-such", position: 2 },
              { productId: "bag-1", position: 3 },
            ],
          },
        });
        const body = await find({ query: "shirt" });
        const order = body.products.map((p) => p.productId);
        expect(order).not.toContain("gone-1");
        // Positions are the store's own: the missing pins leave theirs to the results, bag-1 keeps position 3.
        expect(order.indexOf("bag-1")).toBe(2);
        expect(body.pinnedProductIds).toEqual(["bag-1"]);
      });

      test("boost and bury move products matching a facet, by amount; an explicit sort is left alone", async () => {
        const plain = await ids({ query: "shirt" });
        const roadster = SHIRTS.filter((_, i) => i % 2 === 0);
        await put("boost", { ...query("shirt"), consequence: { boost: [{ filter: "designer:Roadster", amount: 2 }] } });
        const boosted = await ids({ query: "shirt" });
        expect(new Set(boosted.slice(0, 5))).toEqual(new Set(roadster));
        expect(boosted.filter((id) => roadster.includes(id))).toEqual(plain.filter((id) => roadster.includes(id)));
        await put("bury", { ...query("linen"), consequence: { bury: [{ filter: "designer:Roadster", amount: 3 }] } });
        // Boost 2 and bury 3: Roadster nets -1, below the rest.
        const buried = await ids({ query: "linen shirt" });
        expect(new Set(buried.slice(-5))).toEqual(new Set(roadster));
        expect(await ids({ query: "shirt", sortBy: "namea" })).toEqual([...SHIRTS]);
      });

      test("a pin's check follows the catalog: a pinned product changed or deleted after a search shows as it is now", async () => {
        await indexProducts(s, [
          product("pin-late", { name: "Wool coat", brand: "Puma", gender: "Women", categories: ["Apparel", "Topwear", "Coats"] }),
        ]);
        try {
          await put("late", { ...query("shirt"), consequence: { pins: [{ productId: "pin-late", position: 1 }] } });
          const before = await find({ query: "shirt", returnFacets: true });
          expect(before.products[0]!.productId).toBe("pin-late");
          const designers = (b: Body) => b.facets?.find((f) => f.key === "designer")?.values.map((v) => [v.key, v.count]);
          expect(designers(before)).toContainEqual(["Puma", 1]);
          // The same search again (its pin check kept), then the product changes brand: the facet follows.
          await find({ query: "shirt", returnFacets: true });
          await indexProducts(s, [
            product("pin-late", { name: "Wool coat", brand: "Adidas", gender: "Women", categories: ["Apparel", "Topwear", "Coats"] }),
          ]);
          const changed = await find({ query: "shirt", returnFacets: true });
          expect(designers(changed)).toContainEqual(["Adidas", 1]);
          expect(designers(changed)?.some(([key]) => key === "Puma")).toBe(false);
          await deleteProduct(s, "pin-late");
          expect((await find({ query: "shirt" })).products.map((p) => p.productId)).not.toContain("pin-late");
        } finally {
          await deleteProduct(s, "pin-late").catch(() => {});
        }
      });

      test("a boost orders within the product type the query names: a boosted brand's jacket is no shirt and stays out", async () => {
        await indexProducts(s, [
          product("jacket-1", { name: "Linen shirt jacket", brand: "Nike", categories: ["Apparel", "Topwear", "Jackets"] }),
        ]);
        try {
          await put("nike", { ...query("shirt"), consequence: { boost: [{ filter: "designer:Nike", amount: 3 }] } });
          const order = await ids({ query: "linen shirt" });
          expect(order).not.toContain("jacket-1");
          expect(order.filter((id) => id.startsWith("shirt-"))).toHaveLength(SHIRTS.length);
          // Among the shirts, Nike's (the even numbers) first.
          expect(order.slice(0, 5).map((id) => Number(id.slice(-2)) % 2)).toEqual([0, 0, 0, 0, 0]);
        } finally {
          await deleteProduct(s, "jacket-1");
        }
      });

      test("added filters narrow the result", async () => {
        await put("women", { ...query("shirt"), consequence: { filters: ["gender:Women"] } });
        const body = await find({ query: "shirt" });
        expect(body.products.map((p) => p.productId).sort()).toEqual(["shirt-09", "shirt-10"]);
        expect(body.totalProductCount).toBe(2);
      });

      test("replaceWords and removeWords change what is searched", async () => {
        expect((await find({ query: "tee" })).totalProductCount).toBe(0);
        await put("tee", { ...query("tee"), consequence: { replaceWords: [{ word: "tee", with: "shirt" }] } });
        const replaced = await find({ query: "tee" });
        expect(replaced.totalProductCount).toBe(10);
        expect(replaced.query).toBe("shirt");
        await put("cheap", { ...query("cheap"), consequence: { removeWords: ["cheap"] } });
        const removed = await find({ query: "cheap scarves" });
        expect(removed.products.map((p) => p.productId)).toEqual(["scarf-1"]);
        expect(removed.fallback).toBe(false);
      });

      test("redirect and userData come with the search and the redirect with suggestions", async () => {
        const banner = { type: "banner", title: "Gift cards", link: "https://example.com/gift" };
        await put("gift", { ...query("gift card", "is"), consequence: { redirect: "/gift-cards", userData: [banner] } });
        const body = await find({ query: "Gift Cards!" });
        expect(body.redirect).toBe("/gift-cards");
        expect(body.userData).toEqual([banner]);
        const other = await find({ query: "gift" });
        expect(other.redirect).toBeUndefined();
        expect(other.userData).toBeUndefined();
        const typed = await getJson<{ redirect?: string }>(s, "/suggestions", { query: "gift card" });
        expect(typed.body.redirect).toBe("/gift-cards");
        expect((await getJson<{ redirect?: string }>(s, "/suggestions", { query: "gift c" })).body.redirect).toBeUndefined();
      });
    });

    describe("with behaviour ranking and personalisation", () => {
      test("a pinned product stays where the rule put it; the other results are still re-ranked", async () => {
        const plain = await ids({ query: "shirt" });
        const nikes = plain.filter((id) => SHIRTS.indexOf(id) % 2 === 1);
        const listing = { query: "shirt", productIds: plain, pageSize: 30, page: 1 };
        const clicks = nikes.slice(-3).flatMap((id) => [
          { type: "Search", data: { ...listing, totalProducts: plain.length }, userId: "fan", sessionId: "fan-session" },
          { type: "ProductClick", data: { ...listing, clickProductId: id }, userId: "fan", sessionId: "fan-session" },
        ]);
        expect((await s.call("analytics", "POST", "/1.9/tracking", clicks)).status).toBe(200);
        expect((await getJson(s, "/reports/overview", {}, "admin")).status).toBe(200);
        const mine = await ids({ query: "shirt", userId: "fan" });
        // Personalisation is at work: Nike shirts rise for this shopper.
        expect(mine).not.toEqual(plain);
        const roadster = "shirt-09";
        await put("pin-roadster", { ...query("shirt"), consequence: { pins: [{ productId: roadster, position: 1 }] } });
        const pinned = await ids({ query: "shirt", userId: "fan" });
        expect(pinned[0]).toBe(roadster);
        // The rest are re-ranked without the pin among them (so their places may differ from `mine` by the pin's).
        expect(pinned.slice(1)).not.toEqual(plain.filter((id) => id !== roadster));
        expect(new Set(pinned)).toEqual(new Set(plain));
        expect(await ids({ query: "shirt", sessionId: "fan-session" }).then((order) => order[0])).toBe(roadster);
      });
    });

    describe("conditions", () => {
      test("is, startsWith and contains, after search's normalisation", async () => {
        await put("is", { ...query("linen shirt", "is"), consequence: { userData: [{ rule: "is" }] } });
        await put("starts", { ...query("linen", "startsWith"), consequence: { userData: [{ rule: "startsWith" }] } });
        await put("contains", { ...query("shirts", "contains"), consequence: { userData: [{ rule: "contains" }] } });
        const fired = async (q: string) => ((await find({ query: q })).userData ?? []).map((d) => d.rule);
        expect(await fired("LINEN Shirts")).toEqual(["is", "startsWith", "contains"]);
        expect(await fired("linen shirt 05")).toEqual(["startsWith", "contains"]);
        expect(await fired("blue linen shirt")).toEqual(["contains"]);
        expect(await fired("linen")).toEqual(["startsWith"]);
        expect(await fired("shirtless")).toEqual([]);
      });

      test("collection and facet conditions", async () => {
        await put("on-sale", { conditions: [{ collection: "sale" }], consequence: { userData: [{ rule: "sale" }] } });
        await put("nike", {
          conditions: [{ facet: "designer:Nike", pattern: "shirt", anchoring: "contains" }],
          consequence: { userData: [{ rule: "nike" }] },
        });
        expect((await find({ collection: "sale" })).userData).toEqual([{ rule: "sale" }]);
        expect((await find({ query: "shirt" })).userData).toBeUndefined();
        expect((await find({ query: "shirt", facets: "designer:Nike" })).userData).toEqual([{ rule: "nike" }]);
        expect((await find({ query: "scarf", facets: "designer:Nike" })).userData).toBeUndefined();
        // Excluding the value is not choosing it.
        expect((await find({ query: "shirt", facets: "!designer:Nike" })).userData).toBeUndefined();
      });

      test("validity windows and enabled", async () => {
        const now = Date.now();
        const at = (ms: number) => new Date(now + ms).toISOString();
        const data = (rule: string) => ({ ...query("shirt"), consequence: { userData: [{ rule }] } });
        await put("past", { ...data("past"), from: at(-2 * DAY), until: at(-DAY) });
        await put("future", { ...data("future"), from: at(DAY) });
        await put("current", { ...data("current"), from: at(-DAY), until: at(DAY) });
        await put("off", { ...data("off"), enabled: false });
        expect((await find({ query: "shirt" })).userData).toEqual([{ rule: "current" }]);
        await put("off", { ...data("off"), enabled: true });
        expect((await find({ query: "shirt" })).userData).toEqual([{ rule: "current" }, { rule: "off" }]);
      });

      test("several rules combine: the most specific first, then by id; the first redirect wins; explain lists them", async () => {
        await put("b-contains", { ...query("shirt"), consequence: { redirect: "/b", pins: [{ productId: "shirt-05", position: 1 }] } });
        await put("a-contains", {
          ...query("shirt"),
          consequence: { userData: [{ rule: "a" }], pins: [{ productId: "shirt-06", position: 1 }] },
        });
        await put("z-is", { ...query("linen shirt", "is"), consequence: { redirect: "/z", hide: ["shirt-05"] } });
        const body = await find({ query: "linen shirt", explain: true }, "admin");
        expect(body.redirect).toBe("/z");
        expect(body.explain!.rules.map((r) => r.id)).toEqual(["z-is", "a-contains", "b-contains"]);
        expect(body.explain!.rules[0]!.effects).toEqual(["hides shirt-05", "redirects to /z"]);
        // Hidden wins over pinned; a-contains's pin takes position 1 before b-contains's.
        expect(body.products[0]!.productId).toBe("shirt-06");
        expect(body.products.map((p) => p.productId)).not.toContain("shirt-05");
        expect((await getJson(s, "/search", { query: "shirt", explain: true }, "search")).status).toBe(401);
      });
    });

    describe("preview and import", () => {
      test("preview answers as the saved rule will, and saves nothing", async () => {
        const rule = {
          ...query("shirt"),
          consequence: { pins: [{ productId: "bag-1", position: 2 }], hide: ["shirt-03"], userData: [{ type: "banner", title: "Linen" }] },
        };
        const res = await s.call("admin", "POST", "/1.9/rules/preview", {
          id: "draft-1",
          rule,
          search: { query: "shirt", returnFacets: true },
        });
        expect(res.status).toBe(200);
        const previewed = (await res.json()) as Body;
        expect(previewed.products[1]!.productId).toBe("bag-1");
        expect((await s.call("admin", "GET", "/1.9/rules/draft-1")).status).toBe(404);
        expect((await find({ query: "shirt", returnFacets: true })).pinnedProductIds).toBeUndefined();
        await put("draft-1", rule);
        expect(await find({ query: "shirt", returnFacets: true })).toEqual(previewed);
        const bad = await s.call("admin", "POST", "/1.9/rules/preview", { rule, search: { query: "shirt", pageSize: 1000 } });
        expect(bad.status).toBe(400);
        expect(((await bad.json()) as { details: { path: string }[] }).details[0]!.path).toBe("body.search.pageSize");
        const badRule = await s.call("admin", "POST", "/1.9/rules/preview", { rule: { conditions: [] }, search: { query: "shirt" } });
        expect(((await badRule.json()) as { details: { path: string }[] }).details.map((d) => d.path)).toContain("body.rule.conditions");
        expect((await s.call("search", "POST", "/1.9/rules/preview", { rule, search: { query: "shirt" } })).status).toBe(401);
      });

      test("Algolia import maps promote, hide, filters, query edits, userData, redirect and validity; the rest is reported per rule", async () => {
        const now = Math.floor(Date.now() / 1000);
        const exported = [
          {
            objectID: "alg-1",
            conditions: [{ pattern: "linen", anchoring: "contains" }],
            consequence: {
              promote: [{ objectIDs: ["bag-1", "scarf-1"], position: 0 }],
              hide: [{ objectID: "shirt-01" }],
              filterPromotes: true,
              userData: { title: "Linen week" },
            },
            validity: [{ from: now - 3600, until: now + 3600 }],
            enabled: true,
          },
          {
            objectID: "alg-2",
            condition: { pattern: "tee", anchoring: "is" },
            consequence: { params: { query: { edits: [{ type: "replace", delete: "tee", insert: "shirt" }] }, filters: "gender:Women" } },
          },
          {
            objectID: "alg-3",
            conditions: [{ pattern: "help", anchoring: "is" }],
            consequence: { params: { renderingContent: { redirect: { url: "https://example.com/help" } } } },
          },
          { objectID: "alg-4", conditions: [{ pattern: "x", anchoring: "endsWith" }], consequence: { hide: [{ objectID: "a" }] } },
          {
            objectID: "alg-5",
            conditions: [{ pattern: "x", anchoring: "is", context: "mobile" }],
            consequence: { hide: [{ objectID: "a" }] },
          },
          { objectID: "alg-6", conditions: [{ pattern: "x", anchoring: "is" }], consequence: { params: { aroundLatLng: "1,2" } } },
          {
            objectID: "alg-7",
            conditions: [{ pattern: "x", anchoring: "is" }],
            consequence: { params: { filters: "brand:Nike OR brand:Puma" } },
          },
          { objectID: "alg-8", conditions: [{ pattern: "x", anchoring: "is" }], consequence: { params: { filters: "brand:Nike" } } },
          { conditions: [{ pattern: "x", anchoring: "is" }], consequence: { hide: [{ objectID: "a" }] } },
          "not a rule",
        ];
        const res = await s.call("admin", "POST", "/1.9/rules/import?format=algolia", exported);
        expect(res.status).toBe(200);
        const report = (await res.json()) as { imported: number; errors: { index: number; id?: string; message: string }[] };
        expect(report.imported).toBe(3);
        expect(report.errors.map((e) => [e.index, e.id])).toEqual([
          [3, "alg-4"],
          [4, "alg-5"],
          [5, "alg-6"],
          [6, "alg-7"],
          [7, "alg-8"],
          [8, undefined],
          [9, undefined],
        ]);
        expect(report.errors[0]!.message).toContain("endsWith");
        expect(report.errors[2]!.message).toContain("aroundLatLng");
        expect(report.errors[4]!.message).toContain("body[7].consequence.filters[0]");
        const linen = await find({ query: "linen" });
        expect(linen.products.slice(0, 2).map((p) => p.productId)).toEqual(["bag-1", "scarf-1"]);
        expect(linen.products.map((p) => p.productId)).not.toContain("shirt-01");
        expect(linen.userData).toEqual([{ title: "Linen week" }]);
        expect((await ids({ query: "tee" })).sort()).toEqual(["shirt-09", "shirt-10"]);
        expect((await find({ query: "help" })).redirect).toBe("https://example.com/help");
        expect((await getJson<{ from: string }>(s, "/rules/alg-1", {}, "admin")).body.from).toBe(
          new Date((now - 3600) * 1000).toISOString(),
        );
        expect((await s.call("admin", "POST", "/1.9/rules/import?format=typesense", [])).status).toBe(400);
        expect((await s.call("admin", "POST", "/1.9/rules/import?format=algolia", { rules: [] })).status).toBe(400);
      });

      test("a store holds at most 2,000 rules; many rules leave a search's answer alone", async () => {
        const many = Array.from({ length: 2_000 }, (_, i) => ({
          objectID: `bulk-${i}`,
          conditions: [{ pattern: `promo${i} week`, anchoring: "contains" }],
          consequence: { hide: [{ objectID: "shirt-01" }] },
        }));
        const before = await find({ query: "shirt" });
        const res = await s.call("admin", "POST", "/1.9/rules/import?format=algolia", many);
        expect(((await res.json()) as { imported: number }).imported).toBe(2_000);
        expect(await find({ query: "shirt" })).toEqual(before);
        expect((await find({ query: "promo1999 week shirt" })).products.map((p) => p.productId)).not.toContain("shirt-01");
        const over = await s.call("admin", "PUT", "/1.9/rules/one-more", { ...query("x"), consequence: { hide: ["a"] } });
        expect(over.status).toBe(409);
        expect((await s.call("admin", "PUT", "/1.9/rules/bulk-1", { ...query("x"), consequence: { hide: ["a"] } })).status).toBe(200);
      }, 60_000);
    });
  });
