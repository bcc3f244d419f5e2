import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { demoProducts } from "./support/demo-products.ts";
import { textStagesInSearch } from "./support/indexed-child-server.ts";
import { getJson, indexProducts, search, type Params, type SuggestionBody, type SuggestionsBody } from "./support/search-client.ts";
import { reopenTestServer, startTestServer, tempDir, type TestServer } from "./support/test-server.ts";

/*
 * GET /suggestions over 2,000 real products, with past queries seeded through POST /query-log (admin), which
 * also drops the suggestions cache so the tests need not wait for it. Expected labels and counts are computed
 * here from the indexed array.
 */

const SAMPLE = 2000;
const dataDir = tempDir("sfs-suggest-");
let s: TestServer;
let catalog: Product[];

/** Past queries to import: labels must come back lower-cased and single-spaced. */
const SEEDED = [
  { query: "Nike  Shoes", searches: 50 },
  { query: "shoes", searches: 30 },
  { query: "blue shirt", searches: 40 },
  { query: "blue jeans", searches: 10 },
  { query: "kurta", searches: 5 },
  { query: "men watch", searches: 7 },
  { query: "qqqzzv xxyyqq", searches: 99 }, // no results: never suggested
];

beforeAll(async () => {
  // Shoppers here search the same query again and again at once: nothing is held back as typing (typing-coalescer.test.ts).
  s = await startTestServer({ SEARCH_LOG_SETTLE_MS: "0" }, dataDir);
  catalog = demoProducts(SAMPLE);
  await indexProducts(s, catalog);
  // Counts are compared with search totals: the text stage's words must not land in between.
  while (!textStagesInSearch(dataDir)) await Bun.sleep(100);
}, 120_000);
afterAll(async () => {
  await s?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- brute force

const fold = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
const wordsOf = (text: string) =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
/** Every typed word starts a distinct word of the label (no typos: only for words under 4 letters). */
function prefixMatch(typed: string, label: string): boolean {
  const labelWords = wordsOf(label);
  const used = new Set<number>();
  for (const t of wordsOf(typed)) {
    const i = labelWords.findIndex((w, j) => !used.has(j) && w.startsWith(t));
    if (i < 0) return false;
    used.add(i);
  }
  return true;
}
/** Products whose name holds every word of the query (singular or plural): they certainly match it. */
const nameHolds = (p: Product, query: string) =>
  wordsOf(query).every((w) => wordsOf(p.name).some((n) => n === w || n === `${w}s` || `${n}s` === w || n === `${w}es`));

function brandCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of catalog) if (p.brand?.trim()) counts.set(p.brand, (counts.get(p.brand) ?? 0) + 1);
  return counts;
}

async function suggest(query: string, extra: Params = {}): Promise<SuggestionsBody> {
  const { status, body } = await getJson<SuggestionsBody>(s, "/suggestions", { query, ...extra });
  if (status !== 200) throw new Error(`suggestions "${query}" answered ${status}: ${JSON.stringify(body)}`);
  return body;
}

async function importLog(body: unknown, kind: "admin" | "search" | "analytics" = "admin"): Promise<Response> {
  return s.call(kind, "POST", "/1.9/query-log", body);
}

const labels = (list: SuggestionBody[]) => list.map((x) => x.label);

// ---------------------------------------------------------------- tests

describe("query-log import", () => {
  test("imports past queries, counting those with results now", async () => {
    // Brute force: each seeded query but the last is in some product's name; the last is in no product at all.
    for (const q of SEEDED.slice(0, -1))
      expect({ q: q.query, found: catalog.some((p) => nameHolds(p, q.query)) }).toEqual({ q: q.query, found: true });
    expect(catalog.some((p) => JSON.stringify(p).toLowerCase().includes("qqqzzv"))).toBe(false);
    const res = await importLog(SEEDED);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ imported: SEEDED.length, withResults: SEEDED.length - 1, skipped: 0 });
  });

  test("is admin-only: search and analytics keys and no key are 401", async () => {
    for (const kind of ["search", "analytics"] as const) expect((await importLog([{ query: "x", searches: 1 }], kind)).status).toBe(401);
    expect((await s.call(null, "POST", "/1.9/query-log", [{ query: "x", searches: 1 }])).status).toBe(401);
  });

  const INVALID: [body: unknown, path: string][] = [
    [{ query: "shoes", searches: 1 }, "body"],
    [[], "body"],
    [[{ query: "shoes" }], "body[0].searches"],
    [[{ searches: 3 }], "body[0].query"],
    [[{ query: "", searches: 3 }], "body[0].query"],
    [[{ query: "x".repeat(513), searches: 3 }], "body[0].query"],
    [[{ query: "shoes", searches: 0 }], "body[0].searches"],
    [[{ query: "shoes", searches: 1.5 }], "body[0].searches"],
    [[{ query: "shoes", searches: "3" }], "body[0].searches"],
    [
      [
        { query: "shoes", searches: 3 },
        { query: "bags", searches: -1 },
      ],
      "body[1].searches",
    ],
    [[{ query: "shoes", searches: 3, extra: true }], "body[0].extra"],
    [Array.from({ length: 10_001 }, () => ({ query: "a", searches: 1 })), "body"],
  ];
  for (const [body, path] of INVALID) {
    test(`400 naming ${path}: ${JSON.stringify(body).slice(0, 60)}`, async () => {
      const res = await importLog(body);
      expect(res.status).toBe(400);
      const err = (await res.json()) as { code: string; message: string; details?: { path: string }[] };
      expect(err.code).toBe("invalid_request");
      expect(err.message).toBeString();
      expect(err.details?.map((d) => d.path)).toContain(path);
    });
  }

  test("a body that is not JSON is a 400 invalid_json", async () => {
    const res = await importLog("[{query:");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("invalid_json");
  });

  test("importing the same log twice changes nothing", async () => {
    const before = await suggest("s", { limit: 20 });
    const res = await importLog(SEEDED);
    expect(res.status).toBe(200);
    expect(await suggest("s", { limit: 20 })).toEqual(before);
  });
});

describe("GET /suggestions", () => {
  test("an empty or blank query gives empty lists and echoes the query", async () => {
    for (const query of ["", "   ", "-- ,"]) expect(await suggest(query)).toEqual({ suggestions: [], designers: [], query });
    const { status, body } = await getJson<SuggestionsBody>(s, "/suggestions", {});
    expect(status).toBe(200);
    expect(body.suggestions).toEqual([]);
  });

  test("limit: 1 and 20 accepted, default 8; 0, 21, -1, 2.5 and abc are 400 naming query.limit", async () => {
    expect((await suggest("s", { limit: 1 })).suggestions).toHaveLength(1);
    expect((await suggest("s", { limit: 20 })).suggestions).toHaveLength(20);
    expect((await suggest("s", { limit: 20 })).designers).toHaveLength(20);
    const def = await suggest("s");
    expect(def.suggestions).toHaveLength(8);
    expect(def.designers).toHaveLength(8);
    for (const limit of ["0", "21", "-1", "2.5", "abc"]) {
      const { status, body } = await getJson<{ code: string; details?: { path: string }[] }>(s, "/suggestions", { query: "s", limit });
      expect({ limit, status }).toEqual({ limit, status: 400 });
      expect(body.code).toBe("invalid_request");
      expect(body.details?.[0]?.path).toBe("query.limit");
    }
  });

  // BUG (minor, server/src/modules/suggestions/suggestions-routes.ts:26, `Number(query.limit)` turns "" into 0):
  // "limit=" is a 400 "must be a whole number from 1 to 20, got 0", while GET /search treats an empty
  // parameter (pageSize=) as absent and uses the default.
  test("an empty limit means the default, as an empty pageSize does on search", async () => {
    const { status, body } = await getJson<SuggestionsBody>(s, "/suggestions", { query: "s", limit: "" });
    expect(status).toBe(200);
    expect(body.suggestions).toHaveLength(8);
  });

  test("a query over 100 characters is a 400 naming query.query; 100 is fine", async () => {
    expect((await getJson(s, "/suggestions", { query: "a".repeat(100) })).status).toBe(200);
    const { status, body } = await getJson<{ details?: { path: string }[] }>(s, "/suggestions", { query: "a".repeat(101) });
    expect(status).toBe(400);
    expect(body.details?.[0]?.path).toBe("query.query");
  });

  test("keys: search key 200 (preprod accepted); analytics key and no key 401", async () => {
    expect((await getJson(s, "/suggestions", { query: "sho", preprod: true })).status).toBe(200);
    expect((await getJson(s, "/suggestions", { query: "sho" }, "analytics")).status).toBe(401);
    expect((await getJson(s, "/suggestions", { query: "sho" }, null)).status).toBe(401);
  });

  test("prefix: every label has a word starting with what was typed; seeded past queries come first", async () => {
    const body = await suggest("sho", { limit: 20 });
    expect(body.query).toBe("sho");
    expect(labels(body.suggestions).filter((l) => !prefixMatch("sho", l))).toEqual([]);
    // Past queries with results, normalized; the one without results is never offered.
    expect(labels(body.suggestions)[0]).toBe("shoes");
    expect(labels(body.suggestions)).toContain("nike shoes");
    for (const x of body.suggestions) expect(x.id).toMatch(/^\d+$/);
    expect(labels((await suggest("qqq", { limit: 20 })).suggestions)).toEqual([]);
  });

  test("past queries rank by how often they were searched", async () => {
    const body = await suggest("blue", { limit: 20 });
    expect(labels(body.suggestions).slice(0, 2)).toEqual(["blue shirt", "blue jeans"]);
  });

  test("multi-word: every typed word starts a distinct label word, in any order", async () => {
    const a = await suggest("nike sh", { limit: 20 });
    expect(labels(a.suggestions)).toContain("nike shoes");
    expect(labels(a.suggestions).filter((l) => !prefixMatch("nike sh", l))).toEqual([]);
    const b = await suggest("sh nike", { limit: 20 });
    expect(new Set(labels(b.suggestions))).toEqual(new Set(labels(a.suggestions)));
    // Two typed words may not both use the one label word "shoes".
    expect(labels((await suggest("sho sho", { limit: 20 })).suggestions)).not.toContain("shoes");
  });

  test('typo tolerant from 4 letters: "shoos" suggests "shoes", "nkie" suggests the designer Nike', async () => {
    expect(labels((await suggest("shoos")).suggestions)).toContain("shoes");
    expect(labels((await suggest("kurat")).suggestions)).toContain("kurta");
    expect(labels((await suggest("nkie")).designers)).toContain("Nike");
    // A typo in the first letter counts only as a swap with the second: the label word starts with the typed second letter.
    expect(labels((await suggest("hsoes")).suggestions)).toContain("shoes");
    expect(labels((await suggest("inke")).designers)).toContain("Nike");
    expect(labels((await suggest("zhoes", { limit: 20 })).suggestions)).not.toContain("shoes");
    // Under 4 letters no typo is forgiven.
    expect(labels((await suggest("sjo", { limit: 20 })).suggestions)).not.toContain("shoes");
  });

  test("accents and case are ignored", async () => {
    expect(await suggest("SHÓ", { limit: 20 }).then((b) => labels(b.suggestions))).toEqual(
      labels((await suggest("sho", { limit: 20 })).suggestions),
    );
  });

  test("designers: exactly the brands with a word starting with what was typed, counted by products", async () => {
    const counts = brandCounts();
    for (const typed of ["nik", "pum", "lev", "fas", "ind", "u"]) {
      const body = await suggest(typed, { limit: 20 });
      const expected = [...counts.keys()].filter((b) => prefixMatch(typed, b));
      expect(expected.length).toBeGreaterThan(0);
      if (expected.length <= 20) expect(new Set(labels(body.designers))).toEqual(new Set(expected));
      else expect(body.designers).toHaveLength(20);
      for (const d of body.designers) {
        expect({ designer: d.label, count: d.count }).toEqual({ designer: d.label, count: counts.get(d.label)! });
        expect(d.id).toMatch(/^\d+$/);
      }
    }
  });

  test("catalog terms: category names of the indexed products are suggested", async () => {
    const categories = new Set(catalog.flatMap((p) => p.categories ?? []));
    expect(categories.has("Kurtas")).toBe(true);
    const body = await suggest("kurt", { limit: 20 });
    // One term per meaning: the category "Kurtas" or the past query "kurta", whichever stands for it.
    expect(labels(body.suggestions).some((l) => ["kurtas", "kurta"].includes(l.toLowerCase()))).toBe(true);
    for (const l of labels(body.suggestions)) expect(l === "kurta" || categories.has(l)).toBe(true);
  });

  test("past queries show their number of results", async () => {
    for (const q of ["shoes", "nike shoes", "blue jeans", "kurta", "men watch"]) {
      const body = await suggest(q, { limit: 20 });
      const mine = body.suggestions.find((x) => x.label === q)!;
      expect(mine).toBeDefined();
      expect({ q, count: mine.count }).toEqual({ q, count: (await search(s, { query: q, pageSize: 1 })).totalProductCount });
    }
  });

  // BUG (server/src/modules/suggestions/suggestions-service.ts:95, importQueries counts results with
  // `prefixLast: false`, while GET /search matches the last word as a prefix, search-service.ts:66): an imported
  // query's count is not the number of results it gives. Full demo catalog: "jack" imported shows 15, searching
  // it gives 145 (jackets); "sandal" 186 vs 193.
  test("an imported past query shows the number of results searching it gives", async () => {
    expect(
      (
        await importLog([
          { query: "jack", searches: 3 },
          { query: "sandal", searches: 3 },
        ])
      ).status,
    ).toBe(200);
    for (const q of ["jack", "sandal"]) {
      const mine = (await suggest(q, { limit: 20 })).suggestions.find((x) => x.label === q);
      expect({ q, count: mine?.count }).toEqual({ q, count: (await search(s, { query: q, pageSize: 1 })).totalProductCount });
    }
  });

  // BUG (server/src/modules/suggestions/suggestions-service.ts:58-64): a catalog term's count is the facet
  // count of the first category path ending in that label, not the number of results of the term, which the
  // spec's Suggestion.count and docs/decisions.md ("Suggestions") promise. On the full demo catalog "Sunglasses" shows 3 (the
  // lvl0 "Sunglasses" path) while searching it gives 115; "Watches" 85 vs 355; "Hand Bags" 4 vs 210.
  test("every suggestion's count is the number of results of searching its label", async () => {
    const wrong: string[] = [];
    for (const typed of ["wat", "sun", "bag", "sho", "kurt", "jea"]) {
      for (const x of (await suggest(typed, { limit: 20 })).suggestions) {
        const total = (await search(s, { query: x.label, pageSize: 1 })).totalProductCount;
        if (total !== x.count) wrong.push(`${x.label}: ${x.count} vs ${total}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  // BUG (same file, :62 dedups catalog terms by lower-cased label only): singular and plural category names
  // are both offered, e.g. "Saree" and "Sarees", "Showpiece" and "Showpieces", "Water Bottle" and "Water
  // Bottles", although the search treats them as one query.
  test("no two suggestions are the same term in singular and plural", async () => {
    const dupes: string[] = [];
    for (const typed of ["sar", "sho", "wat", "bag", "kurt", "jea", "sun", "ring"]) {
      const seen = new Map<string, string>();
      for (const l of labels((await suggest(typed, { limit: 20 })).suggestions)) {
        const key = wordsOf(l)
          .map((w) => w.replace(/(es|s)$/, ""))
          .join(" ");
        if (seen.has(key)) dupes.push(`${seen.get(key)} / ${l}`);
        seen.set(key, l);
      }
    }
    expect(dupes).toEqual([]);
  });
});

describe("the search log feeds suggestions", () => {
  /** Searches `query` once for each of `shoppers` distinct user ids. */
  async function searchedBy(query: string, shoppers: number, extra: Params = {}): Promise<void> {
    for (let i = 0; i < shoppers; i++) await search(s, { query, userId: `shopper-${Bun.hash(query)}-${i}`, ...extra });
  }
  /** The log is written every 250 ms; an import drops the 30-second suggestions cache. */
  async function logged(): Promise<void> {
    await Bun.sleep(400);
    expect((await importLog([{ query: "shoes", searches: 1 }])).status).toBe(200);
  }

  test("searches with results by three shoppers are suggested; pre-production, fallback and empty searches are not", async () => {
    const withResults = "women kurta";
    const preprod = "red handbag";
    const fallback = "nike shoes qwzxvk";
    const empty = "zzqqxxv";
    expect((await search(s, { query: withResults })).totalProductCount).toBeGreaterThan(0);
    expect((await search(s, { query: preprod, preprod: true })).totalProductCount).toBeGreaterThan(0);
    expect((await search(s, { query: fallback })).fallback).toBe(true);
    expect((await search(s, { query: empty })).totalProductCount).toBe(0);
    await searchedBy(withResults, 3);
    await searchedBy(preprod, 3, { preprod: true });
    await searchedBy(fallback, 3);
    await searchedBy(empty, 3);
    await logged();
    expect(labels((await suggest("women ku", { limit: 20 })).suggestions)).toContain(withResults);
    expect(labels((await suggest("red hand", { limit: 20 })).suggestions)).not.toContain(preprod);
    expect(labels((await suggest("qwzx", { limit: 20 })).suggestions)).toEqual([]);
    expect(labels((await suggest("zzqq", { limit: 20 })).suggestions)).toEqual([]);
  });

  test("one shopper's searches never become a suggestion, however many: it takes three distinct shoppers", async () => {
    const query = "green kurta";
    expect((await search(s, { query })).totalProductCount).toBeGreaterThan(0);
    // Ten searches by one user, and searches with no shopper id at all (a server calling search), count for nobody.
    for (let i = 0; i < 10; i++) await search(s, { query, userId: "the-only-one" });
    for (let i = 0; i < 5; i++) await search(s, { query });
    await searchedBy(query, 1);
    await logged();
    expect(labels((await suggest("green ku", { limit: 20 })).suggestions)).not.toContain(query);
    // A session id counts where no user id is given: the third distinct shopper makes it public.
    await search(s, { query, sessionId: "session-of-a-third-shopper" });
    await logged();
    expect(labels((await suggest("green ku", { limit: 20 })).suggestions)).toContain(query);
  });

  test("a suggestion's count is the query's own result count, not the filtered total of its last search", async () => {
    const query = "blue kurta";
    const all = (await search(s, { query, pageSize: 1, returnFacets: true })).totalProductCount;
    const facets = (await search(s, { query, pageSize: 1, returnFacets: true })).facets;
    const narrow = facets
      .flatMap((f) => f.values.map((v) => ({ selection: `${f.key}:${v.key}`, count: v.count })))
      .find((v) => v.count > 0 && v.count < all)!;
    expect(narrow).toBeDefined();
    await searchedBy(query, 3, { facets: narrow.selection });
    await logged();
    const mine = (await suggest("blue ku", { limit: 20 })).suggestions.find((x) => x.label === query);
    expect(mine?.count).toBe(all);
  });

  test("junk is never suggested: repeated words, addresses and long numbers, searched or imported", async () => {
    const junk = ["women women", "shoes shoes", "kurta 9876543210", "jane@example.com kurta", "www.example.com shoes"];
    for (const q of junk) await searchedBy(q, 3);
    await logged();
    for (const q of junk) {
      const typed = q.split(" ")[0]!.slice(0, 4);
      expect({ q, shown: labels((await suggest(typed, { limit: 20 })).suggestions).includes(q) }).toEqual({ q, shown: false });
    }
    const res = await importLog(junk.map((query) => ({ query, searches: 100 })));
    expect(await res.json()).toEqual({ imported: 0, withResults: 0, skipped: junk.length });
    expect(labels((await suggest("wome", { limit: 20 })).suggestions)).not.toContain("women women");
  });
});

describe("ids", () => {
  let before: Map<string, SuggestionBody[]>;
  const PROBES = ["sho", "nike", "kurt", "blu", "pum", "wat"];

  async function snapshot(): Promise<Map<string, SuggestionBody[]>> {
    const out = new Map<string, SuggestionBody[]>();
    for (const q of PROBES) {
      const body = await suggest(q, { limit: 20 });
      out.set(q, [...body.suggestions, ...body.designers]);
    }
    return out;
  }

  test("an id is a numeric string, the same for a label whatever was typed, and the same on every call", async () => {
    before = await snapshot();
    for (const list of before.values()) {
      for (const x of list) expect(x.id).toMatch(/^\d+$/);
      const ids = list.map((x) => x.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
    const idIn = async (typed: string) => (await suggest(typed, { limit: 20 })).suggestions.find((x) => x.label === "shoes")?.id;
    const id = await idIn("sho");
    expect(id).toBeDefined();
    expect(await idIn("shoe")).toBe(id);
    expect(await idIn("shoos")).toBe(id);
    expect(await snapshot()).toEqual(before);
  });

  test("ids, labels and counts survive a restart on the same data directory", async () => {
    await s.stop();
    s = await reopenTestServer(s);
    expect(await s.service.engineCount(s.storeId)).toBe(SAMPLE);
    expect(await snapshot()).toEqual(before);
  }, 30_000);
});
