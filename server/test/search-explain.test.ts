import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import type { SearchExplanation } from "../src/modules/search/search-explain.ts";
import { demoProducts } from "./support/demo-products.ts";
import { getJson, indexProducts, search, type Params, type SearchBody } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/* explain=true over 2,000 real demo products: the interpretation, the engine request and each result's parts. */

let s: TestServer;
let catalog: Map<string, Product>;

beforeAll(async () => {
  s = await startTestServer();
  const products = demoProducts(2000);
  catalog = new Map(products.map((p) => [p.id, p]));
  await indexProducts(s, products);
}, 60_000);
afterAll(() => s?.stop());

type Explained = SearchBody & { explain: SearchExplanation };

async function explained(params: Params): Promise<Explained> {
  const { status, body } = await getJson<Explained>(s, "/search", { ...params, explain: true }, "admin");
  if (status !== 200) throw new Error(`explain ${JSON.stringify(params)} answered ${status}: ${JSON.stringify(body)}`);
  return body;
}

describe("explain=true", () => {
  test('"mens blue shirts": gender and type are filters, the type and the colour preferences too, in that order', async () => {
    const body = await explained({ query: "mens blue shirts", pageSize: 10 });
    const { interpretation, engine, products } = body.explain;
    expect(interpretation.map((t) => [t.text, t.role])).toEqual([
      ["mens", "gender"],
      ["blue", "colour"],
      ["shirts", "type"],
    ]);
    expect(interpretation[0]!.matchedAsText).toBe(false);
    expect(interpretation[0]!.filters[0]).toMatch(/^gender:Men/);
    // The type narrows to the products the catalog files as shirts; its word is
    // matched too, which every such product has in its categories, to rank by where else it has it.
    expect(interpretation[2]!.filters).toEqual(["productType:shirt"]);
    expect(engine.text).toBe("blue shirts");
    // Adults first too ("mens" is not "boys"); a colour word stands for every variation name holding it.
    expect(engine.sort[0]).toMatch(/^prefer productType:shirt > ageGroup:Adults > color:Blue\|.*\|…\(\+\d+\)$/);
    expect(engine.sort[1]).toBe("relevance");
    // One explanation per product, in the answer's order, and each one's parts are true of the product itself.
    expect(products.map((p) => p.productId)).toEqual(body.products.map((p) => p.productId));
    products.forEach((p, i) => expect(p.position).toBe(i + 1));
    for (const p of products) {
      const product = catalog.get(p.productId)!;
      expect(p.prefers.map((x) => x.filter.split(":")[0])).toEqual(["productType", "ageGroup", "color"]);
      const isBlue = (product.variations ?? []).some((v) => /\bblue\b/i.test(v.name ?? ""));
      expect({ id: p.productId, blue: p.prefers[2]!.met }).toEqual({ id: p.productId, blue: isBlue });
      expect({ id: p.productId, adults: p.prefers[1]!.met }).toEqual({ id: p.productId, adults: product.ageGroup === "Adults" });
      if (p.matches.blue!.includes("name")) expect(product.name.toLowerCase()).toContain("blue");
      expect(p.relevance).toBeGreaterThan(0);
    }
    // The top result meets the type preference: shirts before T-shirts.
    expect(products[0]!.prefers[0]!.met).toBe(true);
  });

  test("explaining does not change the answer", async () => {
    const plain = await search(s, { query: "mens blue shirts", pageSize: 10 });
    const withExplain = await explained({ query: "mens blue shirts", pageSize: 10 });
    expect(withExplain.products.map((p) => p.productId)).toEqual(plain.products.map((p) => p.productId));
    expect(withExplain.totalProductCount).toBe(plain.totalProductCount);
    expect("explain" in plain).toBe(false);
  });

  test("a fallback names the terms it dropped; a typo shows its look-alikes", async () => {
    const body = await explained({ query: "nike shoes qwzxvk", pageSize: 5 });
    expect(body.fallback).toBe(true);
    expect(body.explain.dropped).toEqual(["qwzxvk"]);
    expect(body.explain.engine.text).not.toContain("qwzxvk");
    const typo = await explained({ query: "sheos", pageSize: 5 });
    const correction = typo.explain.corrections!.find((c) => c.word === "sheos")!;
    expect(correction.known).toBe(false);
    expect(correction.candidates[0]?.word).toBe("shoes");
  });

  test("explain needs an admin key: a search key, an analytics key and no key are 401", async () => {
    for (const kind of ["search", "analytics", null] as const) {
      const { status, body } = await getJson<{ message: string }>(s, "/search", { query: "shirt", explain: true }, kind);
      expect(status).toBe(401);
      if (kind === "search") expect(body.message).toContain("explain");
    }
    expect((await getJson(s, "/search", { query: "shirt", explain: "maybe" }, "admin")).status).toBe(400);
  });
});
