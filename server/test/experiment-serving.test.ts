import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { assignVariant } from "../src/modules/experiments/assignment.ts";
import { product } from "./support/fixtures.ts";
import { getJson, indexProducts, type SearchBody } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * A running experiment changes what its shoppers get, through the real server: a rule listed by one variant is in
 * force for that variant's shoppers only, the answer names the experiment and variant, a shopper keeps their
 * variant, searches outside the scope and a stopped experiment give the store's own behaviour, and interleaving
 * drafts both rankings into one list that names who placed each product.
 */

type Body = SearchBody & {
  experiment?: { id: string; variant: string; interleavedFrom?: Record<string, "A" | "B"> };
  pinnedProductIds?: string[];
};

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await indexProducts(s, [
    ...Array.from({ length: 8 }, (_, i) => product(`shirt-${i}`, { name: `Linen shirt ${i}`, brand: "Roadster" })),
    product("bag-1", { name: "Leather bag", brand: "Puma" }),
    product("scarf-1", { name: "Wool scarf", brand: "Nike" }),
  ]);
  // In force for everyone while no experiment holds it back: pins the bag on searches containing "linen".
  await admin("PUT", "/rules/pin-bag", {
    conditions: [{ pattern: "linen", anchoring: "contains" }],
    consequence: { pins: [{ productId: "bag-1", position: 1 }] },
  });
});
afterAll(() => s.stop());

async function admin<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await s.call("admin", method, `/1.9${path}`, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function find(params: Record<string, string | number>): Promise<Body> {
  const { status, body } = await getJson<Body>(s, "/search", { pageSize: 10, ...params });
  expect(status).toBe(200);
  return body;
}

/** A shopper id the assignment puts in the variant at `index` of an experiment with these shares. */
function shopperIn(experimentId: string, index: number, shares: number[], prefix: string): string {
  for (let i = 0; ; i++) if (assignVariant(experimentId, `${prefix}-${i}`, shares) === index) return `${prefix}-${i}`;
}

async function startExperiment(body: unknown): Promise<string> {
  const { id } = await admin<{ id: string }>("POST", "/experiments", body);
  await admin("POST", `/experiments/${id}/start`);
  return id;
}

describe("A/B: what each variant's shoppers get", () => {
  test("a rule one variant lists is in force for its shoppers only; answers name the variant; stopping restores the store", async () => {
    const shares = [50, 50];
    const id = await startExperiment({
      name: "Pin the bag",
      scope: { type: "query", pattern: "shirt", anchoring: "contains" },
      mode: "ab",
      variants: [
        { name: "control", share: 50 },
        { name: "pinned", share: 50, overrides: { rules: ["pin-bag"] } },
      ],
    });
    const control = shopperIn(id, 0, shares, "c");
    const pinned = shopperIn(id, 1, shares, "p");

    const a = await find({ query: "linen shirt", userId: control });
    const b = await find({ query: "linen shirt", userId: pinned });
    expect(a.experiment).toEqual({ id, variant: "control" });
    expect(b.experiment).toEqual({ id, variant: "pinned" });
    expect(a.products.map((p) => p.productId)).not.toContain("bag-1");
    expect(b.products[0]!.productId).toBe("bag-1");
    // The session stands in for a missing user, and a shopper keeps their variant on every search.
    for (let i = 0; i < 3; i++) {
      expect((await find({ query: "linen shirt", sessionId: pinned })).experiment?.variant).toBe("pinned");
      expect((await find({ query: "shirt linen", userId: control })).experiment?.variant).toBe("control");
    }
    // A multi-search answers each search as GET /search does.
    const multi = await s.call("search", "POST", "/1.9/multi-search", {
      requests: [
        { query: "linen shirt", userId: pinned },
        { query: "linen shirt", userId: control },
      ],
    });
    const { results } = (await multi.json()) as { results: Body[] };
    expect(results.map((r) => r.experiment?.variant)).toEqual(["pinned", "control"]);
    expect(results[0]!.products[0]!.productId).toBe("bag-1");
    expect(results[1]!.products.map((p) => p.productId)).not.toContain("bag-1");

    // Outside the scope the store's own rules apply to everyone, and the answer names no experiment.
    const outside = await find({ query: "linen", userId: control });
    expect(outside.experiment).toBeUndefined();
    expect(outside.products[0]!.productId).toBe("bag-1");
    // A search naming no shopper sees the control and is not counted: no variant named.
    const anonymous = await find({ query: "linen shirt" });
    expect(anonymous.experiment).toBeUndefined();
    expect(anonymous.products.map((p) => p.productId)).not.toContain("bag-1");

    await admin("POST", `/experiments/${id}/stop`);
    for (const userId of [control, pinned]) {
      const after = await find({ query: "linen shirt", userId });
      expect(after.experiment).toBeUndefined();
      expect(after.products[0]!.productId).toBe("bag-1");
    }
  });

  test("settings overrides: a variant's facet values shown", async () => {
    const shares = [50, 50];
    const id = await startExperiment({
      name: "Fewer facet values",
      scope: { type: "query", pattern: "scarf", anchoring: "contains" },
      mode: "ab",
      variants: [
        { name: "control", share: 50 },
        { name: "fewer", share: 50, overrides: { settings: { facetShownValues: 1 } } },
      ],
    });
    const shown = async (userId: string) => {
      const body = (
        await getJson<{ facets: { key: string; shownValues?: number }[]; experiment?: { variant: string } }>(s, "/search", {
          query: "scarf",
          returnFacets: "true",
          userId,
        })
      ).body;
      return { variant: body.experiment?.variant, shown: body.facets.map((f) => f.shownValues) };
    };
    const control = await shown(shopperIn(id, 0, shares, "fc"));
    const fewer = await shown(shopperIn(id, 1, shares, "ff"));
    expect(control.variant).toBe("control");
    expect(fewer.variant).toBe("fewer");
    expect(fewer.shown.length).toBeGreaterThan(0);
    expect(fewer.shown.every((n) => n === 1)).toBe(true);
    expect(control.shown).not.toEqual(fewer.shown);
    await admin("POST", `/experiments/${id}/stop`);
  });
});

describe("interleaving", () => {
  test("both rankings drafted into one list, each product naming the ranking that placed it", async () => {
    const id = await startExperiment({
      name: "Pin the bag, interleaved",
      scope: { type: "query", pattern: "shirt", anchoring: "contains" },
      mode: "interleaving",
      variants: [
        { name: "plain", share: 50 },
        { name: "pinned", share: 50, overrides: { rules: ["pin-bag"] } },
      ],
    });
    const answer = await find({ query: "linen shirt", userId: "shopper-1", pageSize: 6 });
    expect(answer.experiment?.id).toBe(id);
    expect(answer.experiment?.variant).toBe("interleaved");
    const ids = answer.products.map((p) => p.productId);
    expect(ids.length).toBe(6);
    expect(new Set(ids).size).toBe(6);
    expect(Object.keys(answer.experiment!.interleavedFrom!).sort()).toEqual([...ids].sort());
    // Only the pinned ranking has the bag, first: it is the first or second product, placed by B.
    expect(ids.indexOf("bag-1")).toBeLessThan(2);
    expect(answer.experiment!.interleavedFrom!["bag-1"]).toBe("B");
    // Each ranking placed half of the list, give or take the one who picked first.
    const fromA = Object.values(answer.experiment!.interleavedFrom!).filter((t) => t === "A").length;
    expect(Math.abs(fromA - 3)).toBeLessThanOrEqual(1);
    // The same shopper sees the same list again; page 2 continues it without repeats.
    expect((await find({ query: "linen shirt", userId: "shopper-1", pageSize: 6 })).products.map((p) => p.productId)).toEqual(ids);
    const next = await find({ query: "linen shirt", userId: "shopper-1", pageSize: 6, from: 6 });
    for (const p of next.products) expect(ids).not.toContain(p.productId);
    await admin("POST", `/experiments/${id}/stop`);
  });
});
