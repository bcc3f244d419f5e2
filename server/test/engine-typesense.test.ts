import { searchRequest } from "../src/engine/conformance.ts";
import { MAX_FUZZY_LETTERS } from "../src/text/query-limits.ts";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { doc } from "../src/engine/conformance.ts";
import { EngineRejectedError, EngineTransientError } from "../src/engine/errors.ts";
import { rangeBuckets } from "../src/engine/range-buckets.ts";
import { stableHash } from "../src/engine/stable-hash.ts";
import { collectionSchema, facetField, identifierKey } from "../src/engine/typesense/collection-schema.ts";
import { TypesenseUnreachableError } from "../src/engine/typesense/node-health.ts";
import { formatNumber } from "../src/engine/typesense/search-params.ts";
import { TypesenseEngine, type TypesenseEngineOptions } from "../src/engine/typesense/typesense-engine.ts";
import type { EngineDocument, EngineSearchRequest } from "../src/engine/types.ts";
import { API_KEY, MockCluster, NODES, type SearchBody } from "./fixtures/typesense/mock-cluster.ts";
import {
  alias,
  collection,
  collectionList,
  deleted,
  ERROR_401,
  exportLines,
  facetFieldSchema,
  hit,
  HEALTH_OK,
  importOk,
  importResults,
  NOT_FOUND,
  searchError,
  searchResult,
} from "./fixtures/typesense/responses.ts";

/*
 * The Typesense adapter against scripted Typesense answers (msw at the network boundary; the official client
 * runs unchanged over axios). Each test states the requests the adapter must send and checks how the
 * documented answers map back to engine types. The shared conformance suite runs against a live server in
 * engine-typesense-live.test.ts.
 */

const mock = new MockCluster();
beforeAll(() => mock.listen());
afterAll(() => mock.close());

const NOW = 1_700_000_000_000;
const DAY = 86_400_000;
let clock = NOW;
const engines: TypesenseEngine[] = [];

function engine(over: Partial<TypesenseEngineOptions> = {}): TypesenseEngine {
  const e = new TypesenseEngine({
    nodes: NODES,
    apiKey: API_KEY,
    randomizeNodes: false,
    clientLogLevel: "silent",
    retryIntervalSeconds: 0.001,
    now: () => clock,
    ...over,
  });
  engines.push(e);
  return e;
}

afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
  mock.reset();
  clock = NOW;
});

const ALIAS = "store_s1";
const COLLECTION = "store_s1_1700000000000";
const FACET_KEYS = ["designer", "color", "size", "category.lvl0", "category.lvl1", "tag.season"];

/** GET /collections/store_s1: the collection with its auto-detected facet fields. */
function withFields(keys = FACET_KEYS): void {
  mock.on("GET", `/collections/${ALIAS}`, {
    json: collection(
      COLLECTION,
      keys.map((k) => facetFieldSchema(facetField(k))),
    ),
  });
}

function withExport(docs: { id: string; vocab: string }[]): void {
  mock.on("GET", `/collections/${ALIAS}/documents/export`, { text: exportLines(docs) });
}

/** The matching parameters every search carries, written out literally. */
function text(q: string, o: { prefix?: boolean; typos?: boolean } = {}): SearchBody {
  const prefix = o.prefix ?? true;
  const typos = o.typos ?? true;
  return {
    collection: ALIAS,
    q,
    query_by: "name,brand,categories,features,tags,description",
    query_by_weights: "10,6,4,2,2,1",
    prefix: Array(6).fill(String(prefix)).join(","),
    num_typos: Array(6)
      .fill(typos ? "2" : "0")
      .join(","),
    min_len_1typo: 4,
    min_len_2typo: 8,
    typo_tokens_threshold: typos ? 1 : 0,
    drop_tokens_threshold: 0,
    split_join_tokens: "off",
    max_candidates: 16,
    highlight_fields: "none",
    highlight_full_fields: "none",
  };
}

const browse = (over: Partial<EngineSearchRequest> = {}) => searchRequest({ matching: { typos: true, prefixLast: false }, ...over });
const BROWSE = text("*", { prefix: false });

const tee = doc({
  id: "tee-black",
  name: "Black Crew T-shirt",
  brand: "Zenith",
  categories: ["Apparel", "Tshirts"],
  facets: { color: ["Black"], size: ["M"] },
  numbers: { price_min: 15, arrival_ts: 3 * DAY, stock: 0 },
});
const bag = doc({
  id: "bag-tan",
  name: "Tan Leather Bag",
  brand: "Ölberg",
  categories: ["Accessories", "Bags"],
  relatedIds: ["SKU-7781"],
  facets: { color: ["Tan"] },
  numbers: { price_min: 120, arrival_ts: 9 * DAY },
});

describe("writes", () => {
  test("the first upsert creates the collection and its alias, reads stored versions, then imports normalized documents", async () => {
    const e = engine();
    mock.once("GET", `/aliases/${ALIAS}`, { status: 404, json: NOT_FOUND });
    mock.once("POST", "/collections", (req) => ({ status: 201, json: collection((req.json as { name: string }).name) }));
    mock.once("PUT", `/aliases/${ALIAS}`, (req) => ({ json: alias(ALIAS, (req.json as { collection_name: string }).collection_name) }));
    mock.onMultiSearch(() => searchResult({ found: 0 }));
    mock.once("POST", `/collections/${ALIAS}/documents/import`, (req) => ({ text: importOk(MockCluster.importLines(req).length) }));

    await e.upsert("s1", [tee, bag]);

    expect(mock.calls()).toEqual([
      "GET /aliases/store_s1",
      "POST /collections",
      "PUT /aliases/store_s1",
      "POST /multi_search",
      "POST /collections/store_s1/documents/import",
    ]);
    expect(mock.requests.every((r) => r.apiKey === API_KEY)).toBe(true);
    expect(mock.requests[1]!.json).toEqual(collectionSchema(COLLECTION));
    expect(mock.requests[2]!.json).toEqual({ collection_name: COLLECTION });
    expect(mock.searches()).toEqual([
      [{ collection: ALIAS, q: "*", filter_by: "id:=[`tee-black`,`bag-tan`]", include_fields: "id,version,seq,vocab", per_page: 250 }],
    ]);
    const importRequest = mock.requests[4]!;
    expect(importRequest.query.action).toBe("upsert");
    expect(MockCluster.importLines(importRequest)).toEqual([
      {
        id: "tee-black",
        version: 1,
        seq: NOW * 1000,
        name: "black crew t shirt tshirt",
        brand: "zenith",
        categories: "apparel tshirt",
        features: "",
        tags: "",
        description: "",
        identifiers: [identifierKey("tee-black")],
        name_sort: "black crew t-shirt",
        vocab: "black crew t shirt tshirt zenith apparel",
        facet_designer: ["Zenith"],
        facet_color: ["Black"],
        facet_size: ["M"],
        price_min: 15,
        arrival_ts: 259_200_000,
        stock: 0,
      },
      {
        id: "bag-tan",
        version: 1,
        seq: NOW * 1000 + 1,
        name: "tan leather bag",
        brand: "olberg",
        categories: "accessory bag",
        features: "",
        tags: "",
        description: "",
        identifiers: [identifierKey("bag-tan"), identifierKey("sku-7781")],
        name_sort: "tan leather bag",
        vocab: "tan leather bag olberg accessory:accessories",
        facet_designer: ["Ölberg"],
        facet_color: ["Tan"],
        price_min: 120,
        arrival_ts: 777_600_000,
      },
    ]);
  });

  test("never replaces a newer version; an equal one is written again with its insertion order kept", async () => {
    const e = engine();
    mock.on("GET", `/aliases/${ALIAS}`, { json: alias(ALIAS, COLLECTION) });
    withExport([
      { id: "a", vocab: "alpha" },
      { id: "b", vocab: "beta" },
    ]);
    mock.onMultiSearch(() =>
      searchResult({ found: 2, hits: [hit("a", { version: 3, seq: 5, vocab: "alpha" }), hit("b", { version: 2, seq: 6, vocab: "beta" })] }),
    );
    mock.once("POST", `/collections/${ALIAS}/documents/import`, (req) => ({ text: importOk(MockCluster.importLines(req).length) }));
    expect((await e.corrections("s1", "alpah"))[0]!.candidates).toEqual([{ word: "alpha", docs: 1, distance: 1 }]);

    await e.upsert("s1", [
      doc({ id: "a", name: "Older", version: 2 }),
      doc({ id: "b", name: "Gamma", version: 2 }),
      doc({ id: "c", name: "First", version: 1 }),
      doc({ id: "c", name: "Second", version: 2 }),
    ]);

    expect(mock.searches().at(-1)![0]!.filter_by).toBe("id:=[`a`,`b`,`c`]");
    const lines = MockCluster.importLines(mock.requests.find((r) => r.path.endsWith("/import"))!);
    expect(lines.map((l) => [l.id, l.version, l.seq, l.name])).toEqual([
      ["b", 2, 6, "gamma"],
      ["c", 2, NOW * 1000, "second"],
    ]);
    // This replica's vocabulary follows its own writes without a new export.
    const [gamma] = await e.corrections("s1", "gamam");
    expect(gamma!.candidates[0]).toEqual({ word: "gamma", docs: 1, distance: 1 });
    expect((await e.corrections("s1", "beta"))[0]!.known).toBe(false);
    expect(mock.calls().filter((c) => c.endsWith("/export"))).toHaveLength(1);
  });

  test("a collection dropped behind the adapter's back is created again on the next write", async () => {
    const e = engine();
    mock.once("GET", `/aliases/${ALIAS}`, { json: alias(ALIAS, COLLECTION) });
    mock.onMultiSearch(() => searchResult({ found: 0 }));
    mock.once("POST", `/collections/${ALIAS}/documents/import`, { text: importOk(1) });
    await e.upsert("s1", [tee]);
    mock.requests.length = 0;
    mock.once("POST", `/collections/${ALIAS}/documents/import`, { status: 404, json: NOT_FOUND });
    mock.once("GET", `/aliases/${ALIAS}`, { status: 404, json: NOT_FOUND });
    mock.once("POST", "/collections", (req) => ({ status: 201, json: collection((req.json as { name: string }).name) }));
    mock.once("PUT", `/aliases/${ALIAS}`, (req) => ({ json: alias(ALIAS, (req.json as { collection_name: string }).collection_name) }));
    mock.once("POST", `/collections/${ALIAS}/documents/import`, { text: importOk(1) });
    await e.upsert("s1", [bag]);
    expect(mock.calls()).toEqual([
      "POST /multi_search",
      "POST /collections/store_s1/documents/import",
      "GET /aliases/store_s1",
      "POST /collections",
      "PUT /aliases/store_s1",
      "POST /collections/store_s1/documents/import",
    ]);
  });

  test("a document Typesense rejects fails the batch as rejected, naming the document", async () => {
    const e = engine();
    mock.on("GET", `/aliases/${ALIAS}`, { json: alias(ALIAS, COLLECTION) });
    mock.onMultiSearch(() => searchResult({ found: 0 }));
    mock.on("POST", `/collections/${ALIAS}/documents/import`, {
      text: importResults([{ success: true }, { success: false, code: 400, error: "Field `price_min` must be a float.", document: "{}" }]),
    });
    const failure = e.upsert("s1", [tee, bag]);
    await expect(failure).rejects.toBeInstanceOf(EngineRejectedError);
    await expect(failure).rejects.toThrow("bag-tan: Field `price_min` must be a float.");
  });

  test("remove reads what is stored, deletes by an id filter, and ignores absent ids and stores", async () => {
    const e = engine();
    mock.onMultiSearch(() => searchResult({ found: 1, hits: [hit("a", { version: 1, seq: 1, vocab: "alpha" })] }), { once: true });
    mock.once("DELETE", `/collections/${ALIAS}/documents`, { json: deleted(1) });
    await e.remove("s1", ["a", "zzz"]);
    expect(mock.searches()[0]![0]!.filter_by).toBe("id:=[`a`,`zzz`]");
    const del = mock.requests.find((r) => r.method === "DELETE")!;
    expect(del.query.filter_by).toBe("id:=[`a`]");

    mock.reset();
    mock.onMultiSearch(() => searchError(404, "Not found."));
    await e.remove("gone", ["a"]);
    expect(mock.calls()).toEqual(["POST /multi_search"]);
  });

  test("setNumbers is a partial update; null unsets a number; absent ids are ignored", async () => {
    const e = engine();
    withFields();
    mock.once("POST", `/collections/${ALIAS}/documents/import`, {
      text: importResults([
        { success: true },
        { success: true },
        { success: false, code: 404, error: "Could not find a document with id: ghost" },
      ]),
    });
    await e.setNumbers("s1", [
      { id: "a", numbers: { purchases: 9, rating_bayes: 0.8 } },
      { id: "b", numbers: { purchases: null, "margin.pct": null } },
      { id: "ghost", numbers: { stock: 2.4 } },
    ]);
    const request = mock.requests.find((r) => r.path.endsWith("/import"))!;
    expect(request.query.action).toBe("update");
    expect(MockCluster.importLines(request)).toEqual([
      { id: "a", purchases: 9, rating_bayes: 0.8 },
      { id: "b", purchases: null },
      { id: "ghost", stock: 2 },
    ]);
  });

  test("versions and count read the store; a store without a collection is empty", async () => {
    const e = engine();
    mock.onMultiSearch(() => searchResult({ found: 1, hits: [hit("a", { version: 3 })] }), { once: true });
    mock.once("GET", `/collections/${ALIAS}/documents/search`, (req) => {
      expect(req.query).toMatchObject({ q: "*", per_page: "0" });
      return { json: searchResult({ found: 8 }) };
    });
    expect(await e.versions("s1", ["a", "nope"])).toEqual(new Map([["a", 3]]));
    expect(mock.searches()[0]).toEqual([
      { collection: ALIAS, q: "*", filter_by: "id:=[`a`,`nope`]", include_fields: "id,version", per_page: 250 },
    ]);
    expect(await e.count("s1")).toBe(8);

    mock.onMultiSearch(() => searchError(404, "Not found."));
    mock.on("GET", "/collections/store_none/documents/search", { status: 404, json: NOT_FOUND });
    expect(await e.versions("none", ["a"])).toEqual(new Map());
    expect(await e.count("none")).toBe(0);
  });

  test("dropStore removes the alias and every collection of the store, not another store's", async () => {
    const e = engine();
    mock.once("DELETE", `/aliases/${ALIAS}`, { json: alias(ALIAS, COLLECTION) });
    mock.once("GET", "/collections", { json: collectionList([COLLECTION, "store_s1_1600000000000", "store_s1_b_1", "store_other_1"]) });
    mock.on("DELETE", /^\/collections\/store_s1_\d+$/, (req) => ({ json: collection(req.path.split("/")[2]!) }));
    await e.dropStore("s1");
    expect(mock.calls()).toEqual([
      "DELETE /aliases/store_s1",
      "GET /collections",
      "DELETE /collections/store_s1_1700000000000",
      "DELETE /collections/store_s1_1600000000000",
    ]);
  });
});

describe("reindex", () => {
  async function* catalog(): AsyncIterable<EngineDocument> {
    yield doc({ id: "a", name: "Alpha", version: 2 });
    yield doc({ id: "b", name: "Beta" });
    yield doc({ id: "a", name: "Stale alpha", version: 1 });
    yield doc({ id: "c", name: "Gamma" });
  }

  test("builds a new collection in batches, then swaps the alias and drops the old collection", async () => {
    const e = engine({ importBatchSize: 2 });
    mock.once("GET", `/collections/${ALIAS}/documents/export`, { text: exportLines([{ id: "b", seq: 5 }]) });
    mock.once("POST", "/collections", (req) => ({ status: 201, json: collection((req.json as { name: string }).name) }));
    mock.on("POST", `/collections/${COLLECTION}/documents/import`, (req) => ({ text: importOk(MockCluster.importLines(req).length) }));
    mock.once("GET", `/aliases/${ALIAS}`, { json: alias(ALIAS, "store_s1_1600000000000") });
    mock.once("PUT", `/aliases/${ALIAS}`, (req) => ({ json: alias(ALIAS, (req.json as { collection_name: string }).collection_name) }));
    mock.once("DELETE", "/collections/store_s1_1600000000000", { json: collection("store_s1_1600000000000") });

    expect(await e.reindexStore("s1", catalog())).toEqual({ index: COLLECTION, documents: 3 });
    expect(mock.calls()).toEqual([
      `GET /collections/${ALIAS}/documents/export`,
      "POST /collections",
      `POST /collections/${COLLECTION}/documents/import`,
      `POST /collections/${COLLECTION}/documents/import`,
      "GET /aliases/store_s1",
      "PUT /aliases/store_s1",
      "DELETE /collections/store_s1_1600000000000",
    ]);
    const imports = mock.requests.filter((r) => r.path.endsWith("/import")).map((r) => MockCluster.importLines(r).map((l) => l.id));
    expect(imports).toEqual([["a", "b"], ["c"]]);
    expect(mock.requests[0]!.query.include_fields).toBe("id,seq");
    // A document keeps its insertion order (the final tie-break) through a reindex; new ones come after.
    const seqs = Object.fromEntries(
      mock.requests.filter((r) => r.path.endsWith("/import")).flatMap((r) => MockCluster.importLines(r).map((l) => [l.id, l.seq])),
    );
    expect(seqs.b).toBe(5);
    expect(seqs.a).toBeGreaterThan(5);
    expect(mock.requests[5]!.json).toEqual({ collection_name: COLLECTION });
    // The vocabulary built while importing serves corrections (no export is needed).
    expect((await e.corrections("s1", "gamam"))[0]!.candidates[0]).toEqual({ word: "gamma", docs: 1, distance: 1 });
  });

  test("a failed reindex drops its new collection and leaves the alias alone", async () => {
    const e = engine();
    mock.once("GET", `/collections/${ALIAS}/documents/export`, { status: 404, json: NOT_FOUND });
    mock.once("POST", "/collections", (req) => ({ status: 201, json: collection((req.json as { name: string }).name) }));
    mock.once("POST", `/collections/${COLLECTION}/documents/import`, {
      text: importResults([{ success: false, code: 400, error: "Bad document" }]),
    });
    mock.once("DELETE", `/collections/${COLLECTION}`, { json: collection(COLLECTION) });
    await expect(e.reindexStore("s1", [doc({ id: "a", name: "Alpha" })])).rejects.toBeInstanceOf(EngineRejectedError);
    expect(mock.calls()).toEqual([
      `GET /collections/${ALIAS}/documents/export`,
      "POST /collections",
      `POST /collections/${COLLECTION}/documents/import`,
      `DELETE /collections/${COLLECTION}`,
    ]);
  });
});

describe("search requests", () => {
  test("one multi_search: the main query, a disjunctive query per selected key, a range distribution and an identifier probe", async () => {
    const e = engine();
    withFields();
    withExport([
      { id: "shirt-blue", vocab: "blue oxford shirt acme apparel" },
      { id: "shirt-white", vocab: "white linen shirt acme apparel" },
    ]);
    const answers = [
      searchResult({
        found: 2,
        hits: [hit("shirt-blue", {}, 1108), hit("shirt-white", {}, 1100)],
        facet_counts: [
          {
            field_name: "facet_color",
            counts: [
              { value: "White", count: 1 },
              { value: "Blue", count: 1 },
            ],
          },
          { field_name: "facet_category_2e_lvl0", counts: [{ value: "Apparel", count: 2 }] },
          { field_name: "facet_category_2e_lvl1", counts: [] },
        ],
      }),
      searchResult({
        found: 4,
        facet_counts: [
          {
            field_name: "facet_designer",
            counts: [
              { value: "Zenith", count: 1 },
              { value: "Acme", count: 2 },
              { value: "Flora", count: 1 },
            ],
          },
        ],
      }),
      searchResult({
        found: 3,
        facet_counts: [
          {
            field_name: "price_min",
            counts: [
              { value: "40", count: 1 },
              { value: "55", count: 1 },
              { value: "15", count: 1 },
            ],
            stats: { min: 15, max: 55, avg: 36.67, sum: 110, total_values: 3 },
          },
        ],
      }),
      searchResult({ found: 0 }),
    ];
    mock.onMultiSearch((_, i) => answers[i]);

    const result = await e.search("s1", {
      text: "Acme Shirts",
      matching: { typos: true, prefixLast: true },
      filters: [
        { kind: "terms", key: "designer", values: ["Acme"] },
        { kind: "range", field: "price_min", min: 40, max: 60 },
      ],
      facets: ["designer", "color", "category.lvl*", "gender"],
      rangeFacets: [{ field: "price_min", maxBuckets: 4 }],
      sort: [{ kind: "relevance" }],
      offset: 0,
      limit: 2,
    });

    expect(mock.calls()).toEqual(["GET /collections/store_s1", "GET /collections/store_s1/documents/export", "POST /multi_search"]);
    expect(mock.requests[1]!.query).toEqual({ include_fields: "id,vocab" });
    const all = "facet_designer:=[`Acme`] && price_min:>=40 && price_min:<60";
    expect(mock.searches()).toEqual([
      [
        {
          ...text("acme shirt"),
          filter_by: all,
          facet_by: "facet_color,facet_category_2e_lvl0,facet_category_2e_lvl1",
          max_facet_values: 250,
          sort_by: "_text_match:desc,seq:asc",
          include_fields: "id",
          page: 1,
          per_page: 2,
        },
        {
          ...text("acme shirt"),
          filter_by: "price_min:>=40 && price_min:<60",
          facet_by: "facet_designer",
          max_facet_values: 250,
          per_page: 0,
        },
        { ...text("acme shirt"), filter_by: "facet_designer:=[`Acme`]", facet_by: "price_min", max_facet_values: 1000, per_page: 0 },
        {
          ...text("*"),
          filter_by: `${all} && identifiers:=[${identifierKey("acme shirts")}]`,
          include_fields: "id",
          sort_by: "seq:asc",
          page: 1,
          per_page: 250,
        },
      ],
    ]);
    expect(result).toEqual({
      total: 2,
      hits: [
        { id: "shirt-blue", score: 1108 },
        { id: "shirt-white", score: 1100 },
      ],
      facets: {
        color: [
          { value: "Blue", count: 1 },
          { value: "White", count: 1 },
        ],
        "category.lvl0": [{ value: "Apparel", count: 2 }],
        designer: [
          { value: "Acme", count: 2 },
          { value: "Flora", count: 1 },
          { value: "Zenith", count: 1 },
        ],
      },
      ranges: { price_min: rangeBuckets([40, 55, 15], 4) },
    });
  });

  test("browsing (no text): wildcard query, no identifier probe, no vocabulary export", async () => {
    const e = engine();
    withFields();
    mock.onMultiSearch(() => searchResult({ found: 5, hits: [hit("x", {}, 0)] }));
    const result = await e.search(
      "s1",
      browse({ filters: [{ kind: "terms", key: "tag.season", values: ["Summer"] }], facets: ["tag.*", "size"] }),
    );
    expect(mock.calls()).toEqual(["GET /collections/store_s1", "POST /multi_search"]);
    expect(mock.searches()[0]).toEqual([
      {
        ...BROWSE,
        filter_by: "facet_tag_2e_season:=[`Summer`]",
        facet_by: "facet_size",
        max_facet_values: 250,
        sort_by: "_text_match:desc,seq:asc",
        include_fields: "id",
        page: 1,
        per_page: 50,
      },
      { ...BROWSE, facet_by: "facet_tag_2e_season", max_facet_values: 250, per_page: 0 },
    ]);
    expect(result.total).toBe(5);
    expect(result.hits).toEqual([{ id: "x", score: 0 }]);
  });

  test("a word longer than the typo limit turns typos off, and off as a prefix when it is the last word (as the embedded engine)", async () => {
    const e = engine();
    withFields();
    withExport([{ id: "shirt-blue", vocab: "blue oxford shirt" }]);
    mock.onMultiSearch(() => searchResult({ found: 0 }));
    const long = "x".repeat(MAX_FUZZY_LETTERS + 1);
    await e.search("s1", searchRequest({ text: `shirt ${long}`, matching: { typos: true, prefixLast: true } }));
    expect(mock.searches()[0]![0]).toMatchObject(text(`shirt ${long}`, { prefix: false, typos: false }));
    await e.search("s1", searchRequest({ text: `${long} shirt`, matching: { typos: true, prefixLast: true } }));
    expect(mock.searches()[1]![0]).toMatchObject(text(`${long} shirt`, { prefix: true, typos: false }));
  });

  test("a filter on a facet key the cached field list lacks re-reads it, then matches nothing if still unknown", async () => {
    const e = engine();
    withFields();
    mock.onMultiSearch(() => searchResult({ found: 0 }));
    await e.search("s1", browse());
    clock += 2000;
    await e.search("s1", browse({ filters: [{ kind: "terms", key: "tag.fabric", values: ["Linen"] }] }));
    expect(mock.calls()).toEqual(["GET /collections/store_s1", "POST /multi_search", "GET /collections/store_s1", "POST /multi_search"]);
    expect(mock.searches()[1]![0]!.filter_by).toBe("version:<0");
  });

  test.each([
    [
      "price ascending, missing last",
      [{ kind: "number", field: "price_min", order: "asc" }, { kind: "relevance" }],
      "price_min(missing_values: last):asc,_text_match:desc,seq:asc",
    ],
    [
      "stock descending, missing last",
      [{ kind: "number", field: "stock", order: "desc" }, { kind: "relevance" }],
      "stock(missing_values: last):desc,_text_match:desc,seq:asc",
    ],
    [
      "rating",
      [{ kind: "number", field: "rating_wilson", order: "desc" }, { kind: "relevance" }],
      "rating_wilson(missing_values: last):desc,_text_match:desc,seq:asc",
    ],
    ["name descending", [{ kind: "text", field: "name", order: "desc", locale: "en" }], "name_sort:desc,seq:asc"],
    [
      "campaign pins",
      [{ kind: "pinned", ids: ["p2", "p1"] }, { kind: "relevance" }],
      "_eval([ (id:=`p2`):2, (id:=`p1`):1 ]):desc,_text_match:desc,seq:asc",
    ],
    ["relevance", [{ kind: "relevance" }], "_text_match:desc,seq:asc"],
  ] as [string, EngineSearchRequest["sort"], string][])("native sort: %s", async (_, sort, expected) => {
    const e = engine();
    withFields();
    mock.onMultiSearch(() => searchResult({ found: 2, hits: [hit("b"), hit("a")] }));
    const result = await e.search("s1", browse({ sort }));
    expect(mock.searches()).toHaveLength(1);
    expect(mock.searches()[0]![0]!.sort_by).toBe(expected);
    expect(result.hits.map((h) => h.id)).toEqual(["b", "a"]);
  });

  test("an offset that is not a multiple of the limit is served by a covering page, sliced", async () => {
    const e = engine();
    withFields();
    const ids = Array.from({ length: 15 }, (_, i) => `p${i}`);
    mock.onMultiSearch((s) => searchResult({ found: 40, hits: ids.slice(0, Number(s.per_page)).map((id) => hit(id)) }));
    const page = await e.search("s1", browse({ offset: 5, limit: 10 }));
    expect(mock.searches()[0]![0]).toMatchObject({ page: 1, per_page: 15 });
    expect(page.hits.map((h) => h.id)).toEqual(ids.slice(5, 15));
    expect(page.total).toBe(40);

    mock.requests.length = 0;
    await e.search("s1", browse({ offset: 3, limit: 3 }));
    expect(mock.searches()[0]![0]).toMatchObject({ page: 2, per_page: 3 });
  });

  test("a window no single page covers takes two pages in the same multi_search", async () => {
    const e = engine();
    withFields();
    mock.onMultiSearch((s) =>
      searchResult({ found: 600, hits: Array.from({ length: 250 }, (_, i) => hit(`p${(Number(s.page) - 1) * 250 + i}`)) }),
    );
    const page = await e.search("s1", browse({ offset: 1, limit: 250, facets: ["color"] }));
    const [main, second] = mock.searches()[0]!;
    expect(main).toMatchObject({ page: 1, per_page: 250, facet_by: "facet_color" });
    expect(second).toEqual({ ...BROWSE, include_fields: "id", sort_by: "_text_match:desc,seq:asc", page: 2, per_page: 250 });
    expect(page.hits.map((h) => h.id)).toEqual(Array.from({ length: 250 }, (_, i) => `p${i + 1}`));
  });

  test("range facets past `rangeFacetValues` distinct values: buckets from the partial distribution, counts from a range facet", async () => {
    const e = engine({ rangeFacetValues: 3 });
    withFields();
    const distribution = searchResult({
      found: 12,
      facet_counts: [
        {
          field_name: "price_min",
          counts: [
            { value: "10", count: 5 },
            { value: "20", count: 3 },
            { value: "30", count: 2 },
          ],
          stats: { min: 1, max: 500, avg: 60, sum: 720, total_values: 7 },
        },
      ],
    });
    const sample = [...Array(5).fill(10), ...Array(3).fill(20), ...Array(2).fill(30), 1, 500];
    const bounds = rangeBuckets(sample, 4);
    // First call: the main query and the distribution; second call: the exact range counts.
    mock.onMultiSearch((_, i) => (i === 0 ? searchResult({ found: 12 }) : distribution), { once: true });
    mock.onMultiSearch(() =>
      searchResult({
        found: 12,
        facet_counts: [{ field_name: "price_min", counts: bounds.map((_, i) => ({ value: `r${i}`, count: i + 1 })) }],
      }),
    );
    const result = await e.search("s1", browse({ rangeFacets: [{ field: "price_min", maxBuckets: 4 }] }));
    const ranges = bounds.map((b, i) => `r${i}:[${formatNumber(b.lb)}, ${formatNumber(b.ub)}]`).join(", ");
    expect(mock.searches()[1]).toEqual([{ ...BROWSE, facet_by: `price_min(${ranges})`, per_page: 0 }]);
    expect(result.ranges.price_min).toEqual(bounds.map((b, i) => ({ lb: b.lb, ub: b.ub, count: i + 1 })));
  });
});

describe("adapter-ordered sorts", () => {
  const newc: EngineSearchRequest["sort"] = [
    { kind: "number", field: "arrival_ts", order: "desc", bucket: { origin: 0, width: 5 * DAY } },
    { kind: "number", field: "price_min", order: "asc" },
  ];

  /** Arrival (days) of the conformance catalog, newest first. */
  const ARRIVALS: [string, number][] = [
    ["dress-green", 13],
    ["shirt-white", 12],
    ["tee-red", 11],
    ["shirt-blue", 10],
    ["bag-tan", 9],
    ["kurta-yellow", 8],
    ["tee-black", 3],
    ["sweat-grey", 1],
  ];

  function arrivalAnswers(finalHits: string[]): void {
    mock.onMultiSearch((s) => {
      const sort = String(s.sort_by);
      if (s.per_page === 0) return searchResult({ found: ARRIVALS.length });
      if (sort.startsWith("arrival_ts(missing_values: last):")) {
        const list = sort.endsWith(":desc") ? ARRIVALS : [...ARRIVALS].reverse();
        const at = list[Number(s.page) - 1];
        return searchResult({ found: ARRIVALS.length, hits: at ? [hit(at[0], { arrival_ts: at[1] * DAY })] : [] });
      }
      return searchResult({ found: ARRIVALS.length, hits: finalHits.map((id) => hit(id)) });
    });
  }

  test("number buckets (newc): probes at the window's ends, then one `_eval` score per bucket and the next sort", async () => {
    const e = engine();
    withFields();
    arrivalAnswers(["tee-red", "shirt-blue", "shirt-white"]);
    const result = await e.search("s1", browse({ sort: newc, limit: 3 }));
    const probe = (order: string, page: number) => ({
      ...BROWSE,
      include_fields: "id,arrival_ts",
      sort_by: `arrival_ts(missing_values: last):${order}`,
      page,
      per_page: 1,
    });
    expect(mock.searches()).toEqual([
      [{ ...BROWSE, include_fields: "id", sort_by: "seq:asc", page: 1, per_page: 0 }],
      [probe("desc", 1), probe("desc", 3), probe("asc", 1)],
      [
        {
          ...BROWSE,
          include_fields: "id",
          sort_by: "_eval(arrival_ts:>=864000000 && arrival_ts:<1296000000):desc,price_min(missing_values: last):asc,seq:asc",
          page: 1,
          per_page: 3,
        },
      ],
    ]);
    expect(result.hits.map((h) => h.id)).toEqual(["tee-red", "shirt-blue", "shirt-white"]);
    expect(result.total).toBe(8);

    mock.requests.length = 0;
    await e.search("s1", browse({ sort: newc, limit: 6 }));
    expect(mock.searches()[2]![0]!.sort_by).toBe(
      "_eval([ (arrival_ts:>=864000000 && arrival_ts:<1296000000):2, (arrival_ts:>=432000000 && arrival_ts:<864000000):1 ]):desc,price_min(missing_values: last):asc,seq:asc",
    );
    mock.requests.length = 0;
    await e.search("s1", browse({ sort: newc, limit: 50 }));
    // Past the last document: the last valued document closes the range (3 buckets).
    expect(String(mock.searches()[2]![0]!.sort_by)).toContain("(arrival_ts:>=0 && arrival_ts:<432000000):1 ]):desc");
  });

  test("age buckets counted back from now (newc2): left-open, right-closed ranges", async () => {
    const e = engine();
    withFields();
    mock.onMultiSearch((s) => {
      if (s.per_page === 0) return searchResult({ found: 3 });
      if (String(s.sort_by).startsWith("arrival_ts(")) {
        const values = { "desc:1": NOW - DAY, "desc:2": NOW - 10 * DAY, "asc:1": NOW - 30 * DAY } as Record<string, number>;
        const key = `${String(s.sort_by).split(":").at(-1)}:${s.page}`;
        return searchResult({ found: 3, hits: [hit("x", { arrival_ts: values[key] })] });
      }
      return searchResult({ found: 3, hits: [hit("new"), hit("older")] });
    });
    await e.search(
      "s1",
      browse({
        sort: [{ kind: "number", field: "arrival_ts", order: "asc", bucket: { origin: NOW, width: -7 * DAY } }, { kind: "relevance" }],
        limit: 2,
      }),
    );
    expect(mock.searches()[1]!.map((s) => s.sort_by)).toEqual([
      "arrival_ts(missing_values: last):desc",
      "arrival_ts(missing_values: last):desc",
      "arrival_ts(missing_values: last):asc",
    ]);
    expect(mock.searches()[2]![0]!.sort_by).toBe(
      "_eval([ (arrival_ts:>1699395200000 && arrival_ts:<=1700000000000):2, (arrival_ts:>1698790400000 && arrival_ts:<=1699395200000):1 ]):desc,_text_match:desc,seq:asc",
    );
  });

  test("number buckets when no document has the number: the next sorts decide", async () => {
    const e = engine();
    withFields();
    mock.onMultiSearch((s) =>
      searchResult({ found: 2, hits: String(s.sort_by).startsWith("arrival_ts(") ? [hit("a")] : [hit("a"), hit("b")] }),
    );
    await e.search("s1", browse({ sort: [newc[0]!, { kind: "relevance" }], limit: 2 }));
    expect(mock.searches()[2]![0]!.sort_by).toBe("_text_match:desc,seq:asc");
  });

  test("lift per group: a group_by pick by _rand(seed), lifted in seeded-hash order, then the rest without them", async () => {
    const e = engine();
    withFields();
    const seed = (stableHash("s1:19675") % 2_147_483_646) + 1;
    mock.onMultiSearch((s) => {
      if (s.per_page === 0) return searchResult({ found: 8 });
      if (s.group_by) {
        return searchResult({
          found: 3,
          found_docs: 8,
          grouped_hits: [
            { group_key: ["Acme"], found: 3, hits: [hit("shirt-white")] },
            { group_key: ["Zenith"], found: 2, hits: [hit("tee-red")] },
            { group_key: [], found: 1, hits: [hit("no-brand")] },
          ],
        });
      }
      return searchResult({ found: 6, hits: [hit("bag-tan"), hit("kurta-yellow")] });
    });
    const result = await e.search(
      "s1",
      browse({
        sort: [
          { kind: "liftPerGroup", key: "designer", perGroup: 1, seed: "s1:19675" },
          { kind: "number", field: "price_min", order: "asc" },
        ],
        limit: 4,
      }),
    );
    const lifted = ["shirt-white", "tee-red"].sort((a, b) => stableHash(`s1:19675\u0000${a}`) - stableHash(`s1:19675\u0000${b}`));
    expect(mock.searches()[1]).toEqual([
      { ...BROWSE, include_fields: "id", group_by: "facet_designer", group_limit: 1, sort_by: `_rand(${seed})`, page: 1, per_page: 250 },
    ]);
    expect(mock.searches()[2]).toEqual([
      {
        ...BROWSE,
        include_fields: "id",
        filter_by: `id:!=[${lifted.map((id) => `\`${id}\``).join(",")}]`,
        sort_by: "price_min(missing_values: last):asc,seq:asc",
        page: 1,
        per_page: 2,
      },
    ]);
    expect(result.hits.map((h) => h.id)).toEqual([...lifted, "bag-tan", "kurta-yellow"]);
  });

  test("a page entirely inside the lifted block needs no query for the rest", async () => {
    const e = engine();
    withFields();
    mock.onMultiSearch((s) =>
      s.group_by
        ? searchResult({
            found: 2,
            grouped_hits: [
              { group_key: ["A"], found: 1, hits: [hit("a1"), hit("a2")] },
              { group_key: ["B"], found: 1, hits: [hit("b1")] },
            ],
          })
        : searchResult({ found: 9 }),
    );
    const result = await e.search(
      "s1",
      browse({ sort: [{ kind: "liftPerGroup", key: "designer", perGroup: 2, seed: "x" }, { kind: "relevance" }], offset: 1, limit: 2 }),
    );
    expect(mock.searches()).toHaveLength(2);
    expect(result.hits).toHaveLength(2);
  });
});

describe("identifiers", () => {
  test("a query equal to a related id that the text does not match: the search runs over the identifier matches alone", async () => {
    const e = engine();
    withFields();
    withExport([{ id: "bag-tan", vocab: "tan leather bag" }]);
    mock.onMultiSearch((_, i) => (i === 1 ? searchResult({ found: 1, hits: [hit("bag-tan")] }) : searchResult({ found: 0 })), {
      once: true,
    });
    mock.onMultiSearch(() =>
      searchResult({
        found: 1,
        hits: [hit("bag-tan")],
        facet_counts: [{ field_name: "facet_color", counts: [{ value: "Tan", count: 1 }] }],
      }),
    );
    const result = await e.search(
      "s1",
      browse({ text: "SKU-7781", facets: ["color"], filters: [{ kind: "range", field: "price_min", min: 100 }] }),
    );
    expect(mock.searches()[0]!.map((s) => s.q)).toEqual(["sku7781", "*"]);
    expect(mock.searches()[0]![1]!.filter_by).toBe(`price_min:>=100 && identifiers:=[${identifierKey("sku-7781")}]`);
    expect(mock.searches()[1]).toEqual([
      {
        ...text("*", { prefix: false }),
        filter_by: "price_min:>=100 && id:=[`bag-tan`]",
        facet_by: "facet_color",
        max_facet_values: 250,
        sort_by: "_text_match:desc,seq:asc",
        include_fields: "id",
        page: 1,
        per_page: 50,
      },
    ]);
    expect(result).toEqual({
      total: 1,
      hits: [{ id: "bag-tan", score: 1e9 }],
      facets: { color: [{ value: "Tan", count: 1 }] },
      ranges: {},
    });
  });

  test("an identifier match among text matches comes first; the total counts it once", async () => {
    const e = engine();
    withFields();
    withExport([{ id: "tee-red", vocab: "red tshirt" }]);
    mock.onMultiSearch((s, i) => {
      if (String(s.filter_by ?? "").startsWith("identifiers:=")) return searchResult({ found: 1, hits: [hit("tee-red")] });
      if (String(s.filter_by ?? "").startsWith("id:!=")) return searchResult({ found: 1, hits: [hit("tee-black", {}, 500)] });
      if (String(s.filter_by ?? "").startsWith("id:=")) return searchResult({ found: 1 });
      return i === 0 ? searchResult({ found: 2, hits: [hit("tee-black"), hit("tee-red")] }) : searchResult({ found: 0 });
    });
    const result = await e.search("s1", browse({ text: "tee-red" }));
    expect(result.total).toBe(2);
    expect(result.hits).toEqual([
      { id: "tee-red", score: 1e9 },
      { id: "tee-black", score: 500 },
    ]);
    const restQuery = mock
      .searches()
      .flat()
      .find((s) => String(s.filter_by ?? "").startsWith("id:!="))!;
    expect(restQuery).toMatchObject({
      q: "teered",
      filter_by: "id:!=[`tee-red`]",
      sort_by: "_text_match:desc,seq:asc",
      page: 1,
      per_page: 49,
    });
  });
});

describe("corrections", () => {
  test("from this replica's vocabulary, built from an export and rebuilt in the background after the refresh interval", async () => {
    const e = engine({ vocabularyRefreshSeconds: 300 });
    mock.once("GET", `/collections/${ALIAS}/documents/export`, {
      text: exportLines([
        { id: "sweat-grey", vocab: "grey sweatshirt acme apparel" },
        { id: "jeans", vocab: "jean:jeans blue" },
      ]),
    });
    const [first, second] = await Promise.all([e.corrections("s1", "sweatshrit"), e.corrections("s1", "jaens")]);
    expect(first).toEqual([{ word: "sweatshrit", known: false, docs: 0, candidates: [{ word: "sweatshirt", docs: 1, distance: 1 }] }]);
    expect(second![0]!.candidates[0]).toEqual({ word: "jeans", docs: 1, distance: 1 });
    expect(mock.calls()).toEqual(["GET /collections/store_s1/documents/export"]);

    mock.once("GET", `/collections/${ALIAS}/documents/export`, { text: exportLines([{ id: "n", vocab: "novelty" }]) });
    clock += 301_000;
    // Still answered from the old vocabulary while the new export runs; close() waits for it.
    expect((await e.corrections("s1", "blue"))[0]!.known).toBe(true);
    await e.close();
    expect((await e.corrections("s1", "novelty"))[0]!.known).toBe(true);
    expect((await e.corrections("s1", "blue"))[0]!.known).toBe(false);
  });

  test("a store without a collection knows no words", async () => {
    const e = engine();
    mock.on("GET", `/collections/${ALIAS}/documents/export`, { status: 404, json: NOT_FOUND });
    expect(await e.corrections("s1", "shirt")).toEqual([{ word: "shirt", known: false, docs: 0, candidates: [] }]);
  });
});

describe("errors and failover", () => {
  test("a store without a collection searches as empty", async () => {
    const e = engine();
    mock.missing(ALIAS);
    expect(await e.search("s1", browse({ facets: ["color"] }))).toEqual({ total: 0, hits: [], facets: {}, ranges: {} });
    expect(mock.calls()).toEqual(["GET /collections/store_s1"]);
  });

  test("a collection that disappears under a search is looked up again, then empty", async () => {
    const e = engine();
    withFields();
    mock.onMultiSearch(() => searchError(404, "Not found."));
    expect((await e.search("s1", browse())).total).toBe(0);
    expect(mock.calls()).toEqual(["GET /collections/store_s1", "POST /multi_search", "GET /collections/store_s1", "POST /multi_search"]);
  });

  test("a search Typesense rejects (400 inside multi_search) is an EngineRejectedError", async () => {
    const e = engine();
    withFields();
    mock.onMultiSearch(() => searchError(400, "Could not parse the filter query."));
    const failure = e.search("s1", browse());
    await expect(failure).rejects.toBeInstanceOf(EngineRejectedError);
    await expect(failure).rejects.toThrow("Could not parse the filter query.");
  });

  test("503 on the first node fails over to the second", async () => {
    const e = engine();
    withFields();
    mock.onMultiSearch(() => searchResult({ found: 1, hits: [hit("a")] }));
    mock.setDown(NODES[0], "503");
    const result = await e.search("s1", browse());
    expect(result.hits).toEqual([{ id: "a", score: 0 }]);
    expect(mock.requests.map((r) => `${r.node} ${r.method} ${r.path}`)).toEqual([
      `${NODES[0]} GET /collections/store_s1`,
      `${NODES[1]} GET /collections/store_s1`,
      `${NODES[1]} POST /multi_search`,
    ]);
  });

  test("a network failure on the first node fails over too", async () => {
    const e = engine();
    mock.setDown(NODES[0], "network");
    mock.once("GET", `/collections/${ALIAS}/documents/search`, { json: searchResult({ found: 3 }) });
    expect(await e.count("s1")).toBe(3);
    expect(mock.requests.map((r) => r.node)).toEqual([NODES[0], NODES[1]]);
  });

  test("every node failing is an EngineTransientError after the client's retries", async () => {
    const e = engine({ numRetries: 2 });
    mock.setDown(NODES[0], "503");
    mock.setDown(NODES[1], "503");
    await expect(e.search("s1", browse())).rejects.toBeInstanceOf(EngineTransientError);
    expect(mock.requests).toHaveLength(3);
    await expect(e.upsert("s1", [tee])).rejects.toBeInstanceOf(EngineTransientError);
    await expect(e.count("s1")).rejects.toBeInstanceOf(EngineTransientError);
  });
});

describe("start-up", () => {
  test("checks /health on every node and the API key once", async () => {
    const e = engine();
    mock.on("GET", "/health", { json: HEALTH_OK });
    mock.once("GET", "/aliases", { json: { aliases: [] } });
    expect(await e.start()).toEqual([
      { node: NODES[0], ok: true },
      { node: NODES[1], ok: true },
    ]);
    expect(mock.calls().sort()).toEqual(["GET /aliases", "GET /health", "GET /health"]);
  });

  test("an unreachable node is named; start-up goes on while another answers", async () => {
    const e = engine();
    mock.on("GET", "/health", { json: HEALTH_OK });
    mock.once("GET", "/aliases", { json: { aliases: [] } });
    mock.setDown(NODES[0], "503");
    const health = await e.start();
    expect(health[0]).toMatchObject({ node: NODES[0], ok: false });
    expect(health[0]!.problem).toContain("HTTP 503");
    expect(health[1]).toEqual({ node: NODES[1], ok: true });
  });

  test("no node answering stops start-up with one line naming each node", async () => {
    const e = engine();
    mock.setDown(NODES[0], "network");
    mock.setDown(NODES[1], "503");
    const failure = e.start();
    await expect(failure).rejects.toBeInstanceOf(TypesenseUnreachableError);
    await expect(failure).rejects.toThrow(`Typesense node ${NODES[0]} is unreachable`);
    await expect(failure).rejects.toThrow(`Typesense node ${NODES[1]} is unreachable: HTTP 503`);
  });

  test("a wrong API key is reported at start-up", async () => {
    const e = engine();
    mock.on("GET", "/health", { json: HEALTH_OK });
    mock.on("GET", "/aliases", { status: 401, json: ERROR_401 });
    const failure = e.start();
    await expect(failure).rejects.toBeInstanceOf(EngineTransientError);
    await expect(failure).rejects.toThrow("TYPESENSE_API_KEY");
  });
});

describe("start-up check through the port", () => {
  test("check() returns a warning line per unreachable node while another answers", async () => {
    const e = engine();
    mock.on("GET", "/health", { json: HEALTH_OK });
    mock.once("GET", "/aliases", { json: { aliases: [] } });
    mock.setDown(NODES[0], "503");
    const warnings = await e.check();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(NODES[0]);
  });
});
