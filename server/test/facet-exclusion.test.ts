import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { demoProducts } from "./support/demo-products.ts";
import { bothEngines } from "./support/both-engines.ts";
import { getJson, indexProducts, search, searchAll, type FacetBody, type Params, type SearchBody } from "./support/search-client.ts";
import { errorBody, startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * Excluding facet values (`facets=!designer:X`) on the real server over demo products, on both engines: what is
 * left out and kept, the excluded key's counts (still listing the excluded values), the same selection through
 * multi-search and similarity, and the 400s of bad forms.
 */

const counts = (body: SearchBody, key: string): Map<string, number> =>
  new Map((body.facets.find((f: FacetBody) => f.key === key)?.values ?? []).map((v) => [v.key, v.count]));

for (const [engine, engineEnv, stopEngine] of bothEngines()) {
  describe(`on the ${engine}`, () => {
    let s: TestServer;
    let all: SearchBody;
    /** The two designers with the most products, and a gender. */
    let [top, second, gender] = ["", "", ""];

    beforeAll(async () => {
      s = await startTestServer(await engineEnv());
      await indexProducts(s, demoProducts(300));
      all = await search(s, { browse: true, returnFacets: true, pageSize: 1 });
      [top = "", second = ""] = [...counts(all, "designer").keys()];
      gender = [...counts(all, "gender").keys()][0]!;
      expect(top && second && gender).toBeTruthy();
    }, 180_000);
    afterAll(async () => {
      await s?.stop();
      await stopEngine();
    });

    const browse = (facets: string, over: Params = {}) => search(s, { browse: true, returnFacets: true, pageSize: 100, facets, ...over });

    test("an exclusion leaves out the products with the value and keeps every other, those without the key too", async () => {
      for (const key of ["designer", "gender", "color"]) {
        const value = [...counts(all, key).keys()][0]!;
        const chosen = await browse(`${key}:${value}`, { pageSize: 1 });
        const excluded = await browse(`!${key}:${value}`, { pageSize: 1 });
        // The chosen and the excluded products split the catalog: none is lost for lacking the key.
        expect(chosen.totalProductCount + excluded.totalProductCount).toBe(all.totalProductCount);
        expect(excluded.totalProductCount).toBeGreaterThan(0);
      }
      const { products } = await searchAll(s, { browse: true, facets: `!designer:${top},!designer:${second}` });
      expect(products.length).toBe(all.totalProductCount - counts(all, "designer").get(top)! - counts(all, "designer").get(second)!);
      expect(products.some((p) => p.designer === top || p.designer === second)).toBe(false);
    });

    test("the excluded key's counts still list the excluded values; other keys count what is left", async () => {
      const excluded = await browse(`!designer:${top}`);
      expect(counts(excluded, "designer")).toEqual(counts(all, "designer"));
      const withoutTop = (await searchAll(s, { browse: true, facets: `!designer:${top}` })).products.length;
      expect(excluded.totalProductCount).toBe(withoutTop);
      const genders = [...counts(excluded, "gender").values()].reduce((a, b) => a + b, 0);
      expect(genders).toBeLessThanOrEqual(excluded.totalProductCount);
      expect(counts(excluded, "gender").get(gender) ?? 0).toBe(
        (await browse(`!designer:${top},gender:${gender}`, { pageSize: 1 })).totalProductCount,
      );
    });

    test("a selection and an exclusion together, values that do not exist, and a value that begins with a dash", async () => {
      const both = await browse(`designer:${top},designer:${second},!designer:${second}`, { pageSize: 1 });
      expect(both.totalProductCount).toBe(counts(all, "designer").get(top)!);
      expect(counts(both, "designer")).toEqual(counts(all, "designer"));
      expect((await browse("!designer:No Such Brand,!tag.nope:x", { pageSize: 1 })).totalProductCount).toBe(all.totalProductCount);
      // "-X" is a value (none has it), not an exclusion: only `!` before the key excludes.
      expect((await browse(`designer:-${top}`, { pageSize: 1 })).totalProductCount).toBe(0);
    });

    test("what the query's words imply on a key still holds beside an exclusion on it; a selection replaces it", async () => {
      const implied = async (facets?: string) =>
        (await search(s, { query: "men shirts", facets, pageSize: 1 })).queryFacets?.find((f) => f.key === "gender")?.values;
      expect(await implied()).toContain("Men");
      expect(await implied("!gender:Women")).toEqual(await implied());
      expect(await implied("gender:Women")).toBeUndefined();
    });

    test("multi-search and similarity take the same syntax", async () => {
      const params = { query: "shirt", facets: `!gender:${gender}`, returnFacets: true, pageSize: 5 };
      const res = await s.call("search", "POST", "/1.9/multi-search", { requests: [params] });
      expect(res.status).toBe(200);
      const [batched] = ((await res.json()) as { results: SearchBody[] }).results;
      expect(batched).toEqual(await search(s, params));
      const source = (await search(s, { query: "shirt", pageSize: 1 })).products[0]!.productId;
      const similar = async (facets?: string) =>
        (
          await getJson<{ products: { product: { productId: string; designer?: string } }[] }>(s, "/similarity", {
            productId: source,
            facets,
            pageSize: 50,
          })
        ).body.products;
      const unfiltered = await similar();
      const designer = unfiltered[0]?.product.designer;
      if (!designer) throw new Error("the similar products of a shirt have a designer");
      const filtered = await similar(`!designer:${designer}`);
      expect(filtered.some((p) => p.product.designer === designer)).toBe(false);
      expect(filtered.length).toBeGreaterThan(0);
    });
  });
}

describe("bad forms", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.stop());

  test.each([
    ["!price:0-100", "a price range cannot be excluded"],
    ["!designer", `"!designer" is not key:value after its !`],
    ["!", `"!" is not key:value after its !`],
    ["!:Nike", `"!:Nike" is not key:value after its !`],
    ["!!designer:Nike", 'unknown facet key "!designer"'],
    ["!brandx:Nike", 'unknown facet key "brandx"'],
    [Array.from({ length: 101 }, (_, i) => `!designer:d${i}`).join(","), "at most 100 selections"],
  ])("facets=%s is a 400 naming it", async (facets, problem) => {
    for (const [path, method, body] of [
      [`/1.9/search?query=shirt&facets=${encodeURIComponent(facets)}`, "GET", undefined],
      ["/1.9/multi-search", "POST", { requests: [{ query: "shirt" }, { query: "shirt", facets }] }],
    ] as const) {
      const res = await s.call("search", method, path, body);
      expect(res.status).toBe(400);
      expect((await errorBody(res)).message).toContain(problem);
    }
  });
});
