import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CATALOG, describeEngineConformance, searchRequest } from "../src/engine/conformance.ts";
import { TypesenseEngine, type TypesenseEngineOptions } from "../src/engine/typesense/typesense-engine.ts";
import { DocumentedCluster } from "./fixtures/typesense/documented-cluster.ts";
import { API_KEY, NODES } from "./fixtures/typesense/mock-cluster.ts";

/*
 * The shared conformance suite against the real TypesenseEngine and the official client, over a stand-in for a
 * Typesense cluster written from Typesense's documented behaviour (fixtures/typesense/documented-cluster.ts:
 * what it implements and simplifies). It is no substitute for engine-typesense-live.test.ts against a server.
 */

const cluster = new DocumentedCluster();
beforeAll(() => cluster.listen());
afterAll(() => cluster.close());

const engine = (over: Partial<TypesenseEngineOptions> = {}) =>
  new TypesenseEngine({ nodes: NODES, apiKey: API_KEY, randomizeNodes: false, clientLogLevel: "silent", ...over });

describeEngineConformance("Typesense (documented-behaviour stand-in)", async () => {
  const e = engine();
  await e.start();
  return {
    engine: e,
    // A restart: a new instance rebuilds its caches (field list, typo vocabulary) from the stand-in's state.
    reopen: async () => engine(),
    cleanup: () => e.close(),
  };
});

describe("the stand-in itself", () => {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${NODES[0]}${path}`, {
      method,
      headers: { "x-typesense-api-key": API_KEY },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json().catch(() => null) };
  };
  const searchOne = async (params: Record<string, unknown>) =>
    (await call("POST", "/multi_search", { searches: [{ collection: "checks", ...params }] })).body.results[0];
  const text = { query_by: "title", drop_tokens_threshold: 0, split_join_tokens: "off", prefix: false };

  beforeAll(async () => {
    await call("POST", "/collections", {
      name: "checks",
      fields: [
        { name: "title", type: "string" },
        { name: "tag_.*", type: "string[]", facet: true, optional: true },
      ],
    });
    const docs = [
      { id: "1", title: "linen", tag_color: ["red"] },
      { id: "2", title: "lien" },
    ];
    await call("POST", "/collections/checks/documents/import?action=upsert", docs.map((d) => JSON.stringify(d)).join("\n"));
  });
  afterAll(() => call("DELETE", "/collections/checks"));

  test("typos are tried only while fewer than typo_tokens_threshold documents match", async () => {
    expect((await searchOne({ ...text, q: "lien", typo_tokens_threshold: 1 })).found).toBe(1);
    expect((await searchOne({ ...text, q: "lien", typo_tokens_threshold: 2 })).found).toBe(2);
    expect((await searchOne({ ...text, q: "lien", typo_tokens_threshold: 2, num_typos: 0 })).found).toBe(1);
  });

  test("a field brought by a regex field is listed, filterable and faceted; != excludes", async () => {
    const schema = (await call("GET", "/collections/checks")).body;
    expect(schema.fields.map((f: { name: string }) => f.name)).toEqual(["title", "tag_.*", "tag_color"]);
    const result = await searchOne({ q: "*", filter_by: "tag_color:=[`red`]", facet_by: "tag_color" });
    expect(result.found).toBe(1);
    expect(result.facet_counts[0].counts).toEqual([{ value: "red", count: 1, highlighted: "red" }]);
    expect((await searchOne({ q: "*", filter_by: "id:!=[`1`]" })).hits.map((h: { document: { id: string } }) => h.document.id)).toEqual([
      "2",
    ]);
  });

  test("word-level string filters, || and parentheses, also inside _eval (the adapter's synonym matching)", async () => {
    const found = async (filter_by: string, extra: Record<string, unknown> = {}) =>
      (await searchOne({ q: "*", filter_by, ...extra })).hits.map((h: { document: { id: string } }) => h.document.id);
    expect(await found("title:`linen`")).toEqual(["1"]);
    expect(await found("title:`lin`")).toEqual([]);
    expect((await found("title:lien || tag_color:=red")).sort()).toEqual(["1", "2"]);
    expect(await found("(title:linen || title:lien) && tag_color:=red")).toEqual(["1"]);
    expect(await found("title:linen || title:lien", { sort_by: "_eval((title:`lien`)):desc" })).toEqual(["2", "1"]);
  });

  test("what it cannot interpret is a 400 naming it; unknown fields are 404 as in Typesense", async () => {
    expect(await searchOne({ q: "*", filter_by: "(tag_color:=red || title:=x" })).toMatchObject({
      code: 400,
      error: expect.stringContaining("(tag_color:=red || title:=x"),
    });
    expect(await searchOne({ q: "*", filter_by: "title:[a, b]" })).toMatchObject({
      code: 400,
      error: expect.stringContaining("title:[a, b]"),
    });
    expect(await searchOne({ q: "*", exhaustive_search: true })).toMatchObject({
      code: 400,
      error: expect.stringContaining("exhaustive_search"),
    });
    expect(await searchOne({ q: "*", filter_by: "size:=[`M`]" })).toMatchObject({ code: 404 });
    expect(await searchOne({ ...text, q: "lien", drop_tokens_threshold: 1 })).toMatchObject({ code: 400 });
    expect((await call("GET", "/collections/checks/synonyms")).status).toBe(400);
  });
});

// The suite's catalog never has more distinct values than rangeFacetValues, so it never reaches this path.
test("range facets from a cut value distribution are counted by Typesense range facets and cover every document", async () => {
  const e = engine({ rangeFacetValues: 3 });
  await e.upsert("ranges", CATALOG);
  const buckets = (await e.search("ranges", searchRequest({ rangeFacets: [{ field: "price_min", maxBuckets: 4 }] }))).ranges.price_min!;
  const prices = CATALOG.map((d) => d.numbers.price_min!);
  for (const b of buckets) expect(b.count).toBe(prices.filter((p) => p >= b.lb && p < b.ub).length);
  expect(buckets.reduce((sum, b) => sum + b.count, 0)).toBe(CATALOG.length);
  await e.dropStore("ranges");
  await e.close();
});

// The suite's bucket sort spans few buckets; past maxBucketExpressions the adapter splits the window.
test("a bucket sort spanning more buckets than _eval expressions keeps the next sort inside the exact buckets", async () => {
  const e = engine({ maxBucketExpressions: 2 });
  await e.upsert("buckets", CATALOG);
  const DAY = 86_400_000;
  const sort = [
    { kind: "number" as const, field: "arrival_ts", order: "desc" as const, bucket: { origin: 0, width: 2 * DAY } },
    { kind: "number" as const, field: "price_min", order: "asc" as const },
  ];
  const ids = async (offset: number, limit: number) =>
    (await e.search("buckets", searchRequest({ sort, offset, limit }))).hits.map((h) => h.id);
  // Blocks of two days, newest first: [12,14) white 55, green 80; [10,12) red 18, blue 40, each by price. The
  // later blocks are past the two expressions: by arrival alone (bag day 9, kurta 8, tee 3, sweat 1).
  const order = ["shirt-white", "dress-green", "tee-red", "shirt-blue", "bag-tan", "kurta-yellow", "tee-black", "sweat-grey"];
  expect(await ids(0, 8)).toEqual(order);
  expect(await ids(3, 3)).toEqual(order.slice(3, 6));
  expect(await ids(5, 3)).toEqual(order.slice(5, 8));
  await e.dropStore("buckets");
  await e.close();
});
