import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { stringifyOnFastPath } from "../src/http/fast-json.ts";
import { product } from "./support/fixtures.ts";
import { indexProducts, queryString, type SearchBody } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * Search answers are written in two pieces (the products' stored fragments, the rest serialized per request) and
 * encoded to UTF-8 apart: whatever characters either holds, the bytes are one valid JSON document.
 */

describe("stringifyOnFastPath", () => {
  const values: [string, object][] = [
    ["empty object", {}],
    ["empty array", []],
    ["ASCII only", { a: 1, b: [true, null, 2.5], c: "plain" }],
    ["Latin-1 only", { name: "Café crème", brand: "Ñandú" }],
    ["a wide character late", { values: Array.from({ length: 2000 }, (_, i) => ({ key: `v${i}`, count: i })), last: "10 – 20" }],
    ["escapes, emoji, lone surrogates", { q: 'say "hi"\\\n\t\u0001', e: "👗 ドレス", lone: "\ud800x\udfff" }],
    ["undefined members and functions", { kept: 1, gone: undefined, f: () => 1, list: [undefined, () => 1] }],
    ["numbers JSON cannot hold", { n: NaN, i: Infinity, z: -0 }],
  ];
  for (const [name, value] of values) {
    test(`is JSON.stringify for ${name}`, () => {
      expect(stringifyOnFastPath(value)).toBe(JSON.stringify(value));
    });
  }

  test("calls toJSON as JSON.stringify does", () => {
    const value = { at: new Date(0), custom: { toJSON: () => "custom – value" } };
    expect(stringifyOnFastPath(value)).toBe(JSON.stringify(value));
  });
});

describe("search answers over HTTP", () => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startTestServer();
    await indexProducts(s, [
      // Brands late in the facet list with characters outside Latin-1, and in the stored product fragments.
      product("levis-1", { name: "Levi’s 511 slim jeans", brand: "Levi’s" }),
      product("cafe-1", { name: "Café crème jeans", brand: "Ñandú" }),
      product("dress-1", { name: "ドレス jeans 👗", brand: "Ümit" }),
      ...Array.from({ length: 30 }, (_, i) => product(`plain-${i}`, { name: `Plain jeans ${i}`, brand: `Brand ${i}` })),
    ]);
  });

  afterAll(() => s?.stop());

  test("are one UTF-8 JSON document with every character as indexed", async () => {
    const res = await s.call(
      "search",
      "GET",
      `/1.9/search${queryString({ query: "jeans", returnFacets: true, pageSize: 40 })}`,
      undefined,
      {
        "accept-encoding": "identity",
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const bytes = new Uint8Array(await res.arrayBuffer());
    // fatal: a byte sequence that is not UTF-8 throws instead of turning into U+FFFD.
    const body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as SearchBody;
    expect(body.totalProductCount).toBe(33);
    expect(body.products.map((p) => p.name)).toEqual(
      expect.arrayContaining(["Levi’s 511 slim jeans", "Café crème jeans", "ドレス jeans 👗"]),
    );
    const brands = body.facets.find((f) => f.key === "designer")!.values.map((v) => v.name);
    expect(brands).toEqual(expect.arrayContaining(["Levi’s", "Ñandú", "Ümit", "Brand 29"]));
    const price = body.facets.find((f) => f.key === "price")!;
    expect(price.values[0]!.name).toContain(" – ");
  });
});
