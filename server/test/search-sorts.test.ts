import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { product } from "./support/fixtures.ts";
import { getJson, indexProducts, search, eventually, type Params } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * Every sortBy value over a small hand-made catalog in its own store. Each expected order is computed here
 * from the fixture values with the formulas of the spec and docs/api.md ("Search"); ties of the sort value are broken by
 * relevance, which the fixtures make predictable: the query word "orbit" sits in a different field per
 * product (name > categories > features > description). Products with the same sort value and the same
 * field form a tie group whose inner order is not asserted.
 */

const DAY = 86_400_000;
const NOW = Date.now();
const QUERY = "orbit";

type Field = "name" | "categories" | "features" | "description";
/** Relevance tier of the field holding the query word: a higher tier ranks first. */
const TIER: Record<Field, number> = { name: 4, categories: 3, features: 2, description: 1 };

interface Spec {
  id: string;
  field: Field;
  name: string;
  brand?: string;
  skus?: Product["skus"];
  /** Age in days at NOW (half days, so n-day blocks never sit on an edge while the test runs). */
  ageDays?: number;
  popularity?: Product["popularity"];
}

type Sku = NonNullable<Product["skus"]>[number];
const sku = (price: number | undefined, extra: Partial<Sku> = {}): Sku => ({
  size: "M",
  availability: "InStock",
  ...(price === undefined ? {} : { price }),
  ...extra,
});
const star = (data: Record<string, unknown>) => ({ type: "STAR" as const, data });
const summary = (votes: Record<number, number>) => Object.entries(votes).map(([rating, count]) => ({ rating, count: String(count) }));

const SPECS: Spec[] = [
  {
    id: "s01",
    field: "name",
    name: "Orbit Jacket 10",
    brand: "Alpha",
    skus: [sku(500, { inventoryQuantity: 3 }), sku(500, { inventoryQuantity: 4 })],
    ageDays: 0.5,
    popularity: star({ maxRating: 5, ratingSummary: summary({ 5: 10 }) }),
  },
  {
    id: "s02",
    field: "features",
    name: "Apex Runner",
    brand: "Alpha",
    skus: [sku(800, { promoPrice: 450, inventoryQuantity: 0 })],
    ageDays: 1.5,
    popularity: star({ overallRating: 4.5, maxRating: 5, reviewCount: 100 }),
  },
  {
    id: "s03",
    field: "description",
    name: "Éclair Scarf",
    brand: "Alpha",
    skus: [sku(300, { inventoryQuantity: -5 }), sku(900, { inventoryQuantity: 2 })],
    ageDays: 4.5,
    popularity: { type: "THUMBS", data: { thumbsUpCount: 40, thumbsDownCount: 10 } },
  },
  {
    id: "s04",
    field: "categories",
    name: "eclipse Tote 2",
    brand: "Alpha",
    skus: [sku(1200, { inventoryQuantity: 10 })],
    ageDays: 6.5,
    popularity: star({ maxRating: 5, ratingSummary: summary({ 5: 1 }) }),
  },
  {
    id: "s05",
    field: "name",
    name: "Orbit Jacket 9",
    brand: "Alpha",
    skus: [sku(700, { promoPrice: 650, inventoryQuantity: 1 }), sku(600, { inventoryQuantity: 1 })],
    ageDays: 7.5,
    popularity: { type: "LIKES", data: { favLikeCount: 900 } },
  },
  {
    id: "s06",
    field: "features",
    name: "Zenith Cap",
    brand: "Beta",
    skus: [sku(999, { inventoryQuantity: 20 })],
    ageDays: 9.5,
    popularity: star({ maxRating: 5, ratingSummary: summary({ 1: 3, 5: 3 }) }),
  },
  { id: "s07", field: "description", name: "Dune Sandal", brand: "Beta", skus: [sku(450, { inventoryQuantity: 5 })], ageDays: 13.5 },
  {
    id: "s08",
    field: "categories",
    name: "Bolt Watch",
    brand: "Beta",
    skus: [sku(2000, { promoPrice: 1500, inventoryQuantity: 8 })],
    ageDays: 15.5,
    popularity: star({ overallRating: 3, maxRating: 5, reviewCount: 2 }),
  },
  {
    id: "s09",
    field: "categories",
    name: "Comet Belt",
    brand: "Beta",
    skus: [sku(50)],
    ageDays: 20.5,
    popularity: { type: "THUMBS", data: { thumbsUpCount: 5, thumbsDownCount: 0 } },
  },
  {
    id: "s10",
    field: "description",
    name: "Yarrow Shirt",
    brand: "Gamma",
    skus: [sku(5000, { inventoryQuantity: 100 })],
    ageDays: 30.5,
    popularity: star({ maxRating: 5, ratingSummary: summary({ 4: 50, 5: 50 }) }),
  },
  {
    id: "s11",
    field: "categories",
    name: "Ember Ring",
    brand: "Gamma",
    skus: [sku(75, { inventoryQuantity: 0 }), sku(80, { inventoryQuantity: 0 })],
    popularity: star({ overallRating: 5, maxRating: 10, reviewCount: 3 }),
  },
  { id: "s12", field: "features", name: "Glide 10 Glove", brand: "Gamma", skus: [sku(undefined)], ageDays: 100.5 },
  { id: "s13", field: "name", name: "Orbit Lamp" },
  {
    id: "s14",
    field: "description",
    name: "Glide 2 Glove",
    skus: [sku(650, { inventoryQuantity: 4 })],
    ageDays: 2.5,
    popularity: { type: "LIKES", data: { favLikeCount: 3 } },
  },
];

function toProduct(spec: Spec): Product {
  const p = product(spec.id, {
    name: spec.name,
    ...(spec.brand === undefined ? {} : { brand: spec.brand }),
    categories: spec.field === "categories" ? ["Gear", "Orbit Gear"] : ["Gear", "Misc"],
    collections: ["sorts"],
    tags: ["kind:fixture"],
    ...(spec.field === "features" ? { features: ["orbit weave"] } : {}),
    description: spec.field === "description" ? `A plain piece with an orbit pattern (${spec.id}).` : `A plain piece (${spec.id}).`,
    ...(spec.popularity ? { popularity: spec.popularity } : {}),
    ...(spec.ageDays === undefined ? {} : { arrivalDateTs: Math.round(NOW - spec.ageDays * DAY) }),
  });
  if (spec.brand === undefined) delete p.brand;
  if (spec.skus === undefined) delete p.skus;
  else p.skus = spec.skus;
  return p;
}

const PRODUCTS = SPECS.map(toProduct);
const SPEC = new Map(SPECS.map((s) => [s.id, s]));
const PRODUCT = new Map(PRODUCTS.map((p) => [p.id, p]));
const ALL = SPECS.map((s) => s.id);
/** Not matching the query: a campaign may name it, but it is never added. */
const UNRELATED = product("s15", { name: "Plain Widget", collections: ["sorts"], description: "Nothing to see." });
/** For the locale setting: names that sort differently in English and Swedish. */
const LOCALE_PRODUCTS = ["Ödla Lynx", "Ost Lynx", "Zebra Lynx"].map((name, i) => product(`l0${i + 1}`, { name, collections: ["locale"] }));

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await indexProducts(s, [...PRODUCTS, UNRELATED, ...LOCALE_PRODUCTS]);
}, 60_000);
afterAll(() => s?.stop());

// ---------------------------------------------------------------- expected values, computed here

const tier = (id: string) => TIER[SPEC.get(id)!.field];

function lowestPrice(id: string): number | undefined {
  const prices = (PRODUCT.get(id)!.skus ?? []).flatMap((k) => k.promoPrice ?? k.price ?? []);
  return prices.length ? Math.min(...prices) : undefined;
}

function stock(id: string): number | undefined {
  const skus = (PRODUCT.get(id)!.skus ?? []).filter((k) => k.inventoryQuantity !== undefined);
  return skus.length ? skus.reduce((sum, k) => sum + Math.max(0, k.inventoryQuantity!), 0) : undefined;
}

const arrival = (id: string) => PRODUCT.get(id)!.arrivalDateTs;

/** Wilson score lower bound, 95 %: (p + z²/2n − z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n). */
function wilson(p: number, n: number): number {
  const z = 1.96;
  return (p + (z * z) / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
}

function ratingWilson(id: string): number | undefined {
  const pop = PRODUCT.get(id)!.popularity;
  if (!pop) return undefined;
  const d = pop.data as {
    thumbsUpCount: number;
    thumbsDownCount: number;
    overallRating: number;
    maxRating: number;
    reviewCount?: number;
    ratingSummary?: { rating: string; count: string }[];
  };
  if (pop.type === "THUMBS") return wilson(d.thumbsUpCount / (d.thumbsUpCount + d.thumbsDownCount), d.thumbsUpCount + d.thumbsDownCount);
  if (pop.type !== "STAR") return undefined;
  const max = d.maxRating ?? 5;
  if (d.ratingSummary) {
    let n = 0;
    let positive = 0;
    for (const { rating, count } of d.ratingSummary as { rating: string; count: string }[]) {
      n += Number(count);
      positive += Number(count) * ((Number(rating) - 1) / (max - 1));
    }
    return wilson(positive / n, n);
  }
  return d.overallRating === undefined ? undefined : Math.min(1, d.overallRating / max);
}

/** Bayesian average (w·m + v·a) / (w + v), with a the average as a share of the maximum rating over v reviews. */
function ratingBayes(id: string, prior: { mean: number; weight: number }): number | undefined {
  const pop = PRODUCT.get(id)!.popularity;
  if (!pop) return undefined;
  const d = pop.data as {
    thumbsUpCount: number;
    thumbsDownCount: number;
    overallRating: number;
    maxRating: number;
    reviewCount?: number;
    ratingSummary?: { rating: string; count: string }[];
  };
  let a: number;
  let v: number;
  if (pop.type === "THUMBS") {
    v = d.thumbsUpCount + d.thumbsDownCount;
    a = d.thumbsUpCount / v;
  } else if (pop.type === "STAR") {
    const max = d.maxRating ?? 5;
    const votes = (d.ratingSummary ?? []) as { rating: string; count: string }[];
    const n = votes.reduce((sum, x) => sum + Number(x.count), 0);
    const stars = votes.reduce((sum, x) => sum + Number(x.count) * Number(x.rating), 0);
    a = d.overallRating !== undefined ? d.overallRating / max : stars / n / max;
    v = d.reviewCount ?? n;
  } else return undefined;
  return (prior.weight * prior.mean + v * a) / (prior.weight + v);
}

const MISSING = Number.POSITIVE_INFINITY;
const asc = (v: number | undefined) => (v === undefined ? MISSING : v);
const desc = (v: number | undefined) => (v === undefined ? MISSING : -v);
const ageBlock = (id: string, days: number, now: number) => {
  const a = arrival(id);
  return a === undefined ? undefined : Math.floor((now - a) / (days * DAY));
};
const epochBlock = (id: string, days: number) => {
  const a = arrival(id);
  return a === undefined ? undefined : Math.floor(a / (days * DAY));
};

type Key = number[];
const compareKeys = (a: Key, b: Key) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return 0;
};

/**
 * The expected order as tie groups: ids sorted by `key` (missing values as +Infinity, so last), consecutive
 * equal keys forming one group. The answer must list the groups in this order; inside a group any order.
 */
function expectedGroups(ids: readonly string[], key: (id: string) => Key): string[][] {
  const sorted = [...ids].sort((a, b) => compareKeys(key(a), key(b)));
  const groups: string[][] = [];
  for (const id of sorted) {
    const last = groups.at(-1);
    if (last && compareKeys(key(last[0]!), key(id)) === 0) last.push(id);
    else groups.push([id]);
  }
  return groups;
}

function expectOrder(actual: readonly string[], ids: readonly string[], key: (id: string) => Key): void {
  const groups = expectedGroups(ids, key);
  const got: string[][] = [];
  let at = 0;
  for (const g of groups) {
    got.push(actual.slice(at, at + g.length).toSorted());
    at += g.length;
  }
  expect({ groups: got, rest: actual.slice(at) }).toEqual({ groups: groups.map((g) => g.toSorted()), rest: [] });
  expect(actual).toHaveLength(ids.length);
}

async function order(params: Params): Promise<string[]> {
  const body = await search(s, { query: QUERY, pageSize: 100, ...params });
  expect(body.totalProductCount).toBe(body.products.length);
  return body.products.map((p) => p.productId);
}

async function patchSettings(body: Record<string, unknown>): Promise<void> {
  const res = await s.call("admin", "PATCH", "/1.9/settings", body);
  expect(res.status).toBe(200);
}

const designers = (ids: string[]) => ids.map((id) => SPEC.get(id)!.brand ?? null);
const count = <T>(list: T[]) => list.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<T, number>());

/** Lifted products first (per designer exactly min(perVendor, products)), then the rest in newc2 order. */
function expectLifted(actual: string[], perVendor: number, days = 7): string[] {
  const byDesigner = count(ALL.map((id) => SPEC.get(id)!.brand).filter((b): b is string => !!b));
  const lifted = [...byDesigner.values()].reduce((sum, n) => sum + Math.min(perVendor, n), 0);
  const head = actual.slice(0, lifted);
  expect(Object.fromEntries(count(designers(head)))).toEqual(
    Object.fromEntries([...byDesigner].map(([d, n]) => [d, Math.min(perVendor, n)])),
  );
  expectOrder(
    actual.slice(lifted),
    ALL.filter((id) => !head.includes(id)),
    (id) => [asc(ageBlock(id, days, Date.now())), -tier(id)],
  );
  return head;
}

// ---------------------------------------------------------------- the sorts

describe("sortBy over hand-made products", () => {
  test("relevance (no sortBy): the field holding the word decides, name > categories > features > description", async () => {
    expectOrder(await order({}), ALL, (id) => [-tier(id)]);
  });

  test("sortBy=relevance is the explicit default: the same order as no sortBy", async () => {
    expect(await order({ sortBy: "relevance" })).toEqual(await order({}));
  });

  test("the fixtures make the sorts below decisive (sanity check of the expectations themselves)", () => {
    // Most keys are distinct, so most expectations are an exact order, not loose groups.
    expect(expectedGroups(ALL, (id) => [asc(lowestPrice(id)), -tier(id)]).every((g) => g.length === 1)).toBe(true);
    expect(expectedGroups(ALL, (id) => [asc(stock(id)), -tier(id)]).every((g) => g.length === 1)).toBe(true);
    expect(expectedGroups(ALL, (id) => [desc(arrival(id)), -tier(id)]).every((g) => g.length === 1)).toBe(true);
    expect(lowestPrice("s02")).toBe(450);
    expect(lowestPrice("s05")).toBe(600);
    expect(stock("s03")).toBe(2);
    expect(stock("s09")).toBeUndefined();
  });

  test("pricea: lowest effective SKU price (promoPrice else price) ascending, ties by relevance, no price last", async () => {
    const actual = await order({ sortBy: "pricea" });
    expectOrder(actual, ALL, (id) => [asc(lowestPrice(id)), -tier(id)]);
    // Spelled out: s02 (promo 450, features) before s07 (450, description); s13 and s12 have no price.
    expect(actual.slice(0, 4)).toEqual(["s09", "s11", "s03", "s02"]);
    expect(actual.slice(-2)).toEqual(["s13", "s12"]);
  });

  test("priced: descending, ties by relevance, no price still last", async () => {
    const actual = await order({ sortBy: "priced" });
    expectOrder(actual, ALL, (id) => [desc(lowestPrice(id)), -tier(id)]);
    expect(actual.slice(0, 2)).toEqual(["s10", "s08"]);
    expect(actual.slice(-2)).toEqual(["s13", "s12"]);
  });

  test("namea and named: locale collation (accents and case at base level, numbers numeric), no relevance needed", async () => {
    const namea = [
      "Apex Runner",
      "Bolt Watch",
      "Comet Belt",
      "Dune Sandal",
      "Éclair Scarf",
      "eclipse Tote 2",
      "Ember Ring",
      "Glide 2 Glove",
      "Glide 10 Glove",
      "Orbit Jacket 9",
      "Orbit Jacket 10",
      "Orbit Lamp",
      "Yarrow Shirt",
      "Zenith Cap",
    ];
    const names = (ids: string[]) => ids.map((id) => SPEC.get(id)!.name);
    expect(names(await order({ sortBy: "namea" }))).toEqual(namea);
    expect(names(await order({ sortBy: "named" }))).toEqual(namea.toReversed());
  });

  test("stocka and stockd: sum of max(0, inventoryQuantity); products without any stock data last in both", async () => {
    const up = await order({ sortBy: "stocka" });
    expectOrder(up, ALL, (id) => [asc(stock(id)), -tier(id)]);
    expect(up.slice(0, 4)).toEqual(["s11", "s02", "s05", "s03"]); // 0, 0 (by relevance), 2, 2 (-5 counts as 0)
    const down = await order({ sortBy: "stockd" });
    expectOrder(down, ALL, (id) => [desc(stock(id)), -tier(id)]);
    for (const list of [up, down]) expect(list.slice(-3)).toEqual(["s13", "s09", "s12"]);
  });

  test("new: arrival descending, no arrival date last", async () => {
    const actual = await order({ sortBy: "new" });
    expectOrder(actual, ALL, (id) => [desc(arrival(id)), -tier(id)]);
    expect(actual.slice(-2)).toEqual(["s13", "s11"]);
  });

  test("newc: 7-day blocks counted from the epoch, newest first, relevance inside a block", async () => {
    expectOrder(await order({ sortBy: "newc" }), ALL, (id) => [desc(epochBlock(id, 7)), -tier(id)]);
  });

  test("newc2: 7-day blocks of age counted from now, youngest first, relevance inside a block", async () => {
    const actual = await order({ sortBy: "newc2" });
    expectOrder(actual, ALL, (id) => [asc(ageBlock(id, 7, Date.now())), -tier(id)]);
    // Ages 0.5 to 6.5 days are block 0: by relevance s01 (name), s04 (categories), s02 (features), then s03, s14.
    expect(actual.slice(0, 3)).toEqual(["s01", "s04", "s02"]);
  });

  test("rating: Wilson lower bound of the ratings summary (else overall/max, THUMBS by votes), unrated last", async () => {
    const actual = await order({ sortBy: "rating" });
    expectOrder(actual, ALL, (id) => [desc(ratingWilson(id)), -tier(id)]);
    // Ten 5-star votes beat one, and one 5-star vote is far from the top.
    expect(actual.indexOf("s01")).toBeLessThan(actual.indexOf("s04"));
    expect(new Set(actual.slice(-5))).toEqual(new Set(["s05", "s07", "s12", "s13", "s14"]));
  });

  test("rating2: Bayesian average with the default prior (0.7 worth 10 reviews), unrated last", async () => {
    const prior = { mean: 0.7, weight: 10 };
    const actual = await order({ sortBy: "rating2" });
    expectOrder(actual, ALL, (id) => [desc(ratingBayes(id, prior)), -tier(id)]);
    // 4.5 stars over 100 reviews beats a single 5-star review under this prior.
    expect(actual.indexOf("s02")).toBeLessThan(actual.indexOf("s04"));
  });

  test("campaign: the listed products that match first, in the listed order; unknown and unmatched ids ignored", async () => {
    const actual = await order({ sortBy: "campaign", campaignProducts: "s09,s02,nope,s15,s11" });
    expect(actual.slice(0, 3)).toEqual(["s09", "s02", "s11"]);
    expect(actual).not.toContain("s15");
    expectOrder(
      actual.slice(3),
      ALL.filter((id) => !["s09", "s02", "s11"].includes(id)),
      (id) => [-tier(id)],
    );
  });

  // BUG (server/src/engine/sqlite/store-index.ts, sortPart "pinned": `new Map(sort.ids.map((id, i) => [id, i]))`):
  // an id listed twice takes its LAST position, so "s02,s09,s02" puts s09 before s02; the first mention should
  // count (or duplicates be rejected with a 400 naming query.campaignProducts).
  test("campaign: an id listed twice keeps its first position", async () => {
    const actual = await order({ sortBy: "campaign", campaignProducts: "s02,s09,s02" });
    expect(actual.slice(0, 2)).toEqual(["s02", "s09"]);
  });

  test("campaign without a query: the collection page gets the listed products first", async () => {
    const body = await search(s, { collection: "sorts", sortBy: "campaign", campaignProducts: "s15,s13", pageSize: 100 });
    expect(body.products.slice(0, 2).map((p) => p.productId)).toEqual(["s15", "s13"]);
    expect(body.totalProductCount).toBe(PRODUCTS.length + 1);
  });
});

describe("vendor_based_newness", () => {
  test("lifts 2 products per designer (the default) before the rest, which follow newc2", async () => {
    expectLifted(await order({ sortBy: "vendor_based_newness", sessionId: "session-a" }), 2);
  });

  test("the same session sees the same order on every call, page size and page", async () => {
    const whole = await order({ sortBy: "vendor_based_newness", sessionId: "session-b" });
    expect(await order({ sortBy: "vendor_based_newness", sessionId: "session-b" })).toEqual(whole);
    for (const pageSize of [3, 5]) {
      const paged: string[] = [];
      for (let from = 0; from < whole.length; from += pageSize) {
        const page = await search(s, { query: QUERY, sortBy: "vendor_based_newness", sessionId: "session-b", from, pageSize });
        paged.push(...page.products.map((p) => p.productId));
      }
      expect(paged).toEqual(whole);
    }
    // userId seeds it when there is no sessionId.
    const byUser = await order({ sortBy: "vendor_based_newness", userId: "user-b" });
    expect(await order({ sortBy: "vendor_based_newness", userId: "user-b" })).toEqual(byUser);
  });

  test("different sessions get different lifted products (a fair chance for each product)", async () => {
    const heads = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const actual = await order({ sortBy: "vendor_based_newness", sessionId: `shopper-${i}` });
      heads.add(expectLifted(actual, 2).toSorted().join(","));
    }
    expect(heads.size).toBeGreaterThan(1);
  });

  test("vendorLiftPerVendor 1 lifts one per designer; 0 is plain newc2", async () => {
    await patchSettings({ vendorLiftPerVendor: 1 });
    const one = await order({ sortBy: "vendor_based_newness", sessionId: "session-c" });
    expect(new Set(designers(one.slice(0, 3)))).toEqual(new Set(["Alpha", "Beta", "Gamma"]));
    expectLifted(one, 1);
    await patchSettings({ vendorLiftPerVendor: 0 });
    expect(await order({ sortBy: "vendor_based_newness", sessionId: "session-c" })).toEqual(await order({ sortBy: "newc2" }));
    await patchSettings({ vendorLiftPerVendor: 2 });
  });
});

describe("store settings change the sorts", () => {
  test("newnessDays 3: newc and newc2 use 3-day blocks", async () => {
    await patchSettings({ newnessDays: 3 });
    const settings = (await getJson<Record<string, unknown>>(s, "/settings", {}, "admin")).body;
    expect(settings.newnessDays).toBe(3);
    const newc2 = await order({ sortBy: "newc2" });
    expectOrder(newc2, ALL, (id) => [asc(ageBlock(id, 3, Date.now())), -tier(id)]);
    // Ages 0.5, 1.5 and 2.5 days make block 0 now; 4.5 and 6.5 (block 0 with 7 days) come after.
    expect(newc2.slice(0, 3)).toEqual(["s01", "s02", "s14"]);
    expectOrder(await order({ sortBy: "newc" }), ALL, (id) => [desc(epochBlock(id, 3)), -tier(id)]);
    expectLifted(await order({ sortBy: "vendor_based_newness", sessionId: "session-d" }), 2, 3);
    await patchSettings({ newnessDays: 7 });
  });

  test("ratingPrior: rating2 is re-scored when the prior changes, also for products indexed after", async () => {
    const prior = { mean: 0.5, weight: 0 };
    await patchSettings({ ratingPrior: prior });
    const actual = await order({ sortBy: "rating2" });
    expectOrder(actual, ALL, (id) => [desc(ratingBayes(id, prior)), -tier(id)]);
    // Without the prior's weight, a single 5-star review beats 4.5 stars over 100 reviews.
    expect(actual.indexOf("s04")).toBeLessThan(actual.indexOf("s02"));
    // A product indexed now is scored with the current prior: 4.8 of 5 over 1 review = 0.96.
    const late = product("s16", {
      name: "Late Orbit Hat",
      collections: ["sorts"],
      popularity: star({ overallRating: 4.8, maxRating: 5, reviewCount: 1 }),
    });
    await indexProducts(s, [late]);
    // s01, s04 and s09 score 1.0 (10 of 10 five-star votes, 1 of 1, 5 of 5 thumbs up), s16 0.96, s02 and s10 0.9.
    const withLate = await order({ sortBy: "rating2" });
    expect(withLate[0]).toBe("s01"); // 1.0, and the query word in its name
    expect(new Set(withLate.slice(1, 3))).toEqual(new Set(["s04", "s09"]));
    expect(withLate.slice(3, 6)).toEqual(["s16", "s02", "s10"]);
    await patchSettings({ ratingPrior: { mean: 0.7, weight: 10 } });
    // Back to the default prior: (10·0.7 + 1·0.96) / 11 = 0.724 puts s16 below s02 (0.882) again.
    const restored = await order({ sortBy: "rating2" });
    expect(restored.indexOf("s16")).toBeGreaterThan(restored.indexOf("s02"));
    const res = await s.call("admin", "DELETE", "/1.9/products/s16");
    expect(await s.waitForTask(((await res.json()) as { taskId: string }).taskId)).toMatchObject({ status: "complete" });
  });

  test("locale: namea follows the store's collation (Swedish puts Ö after Z)", async () => {
    const names = async () => (await search(s, { query: "lynx", sortBy: "namea" })).products.map((p) => p.name);
    expect(await names()).toEqual(["Ödla Lynx", "Ost Lynx", "Zebra Lynx"]);
    await patchSettings({ locale: "sv" });
    expect(await names()).toEqual(["Ost Lynx", "Zebra Lynx", "Ödla Lynx"]);
    await patchSettings({ locale: "en" });
    expect(await names()).toEqual(["Ödla Lynx", "Ost Lynx", "Zebra Lynx"]);
  });
});

describe("purchase", () => {
  const orderEvent = (type: "OrderComplete" | "Purchase", orderId: string, lines: [string, number?][]) => ({
    type,
    sessionId: "buyer-1",
    data: { orderId, products: lines.map(([id, qty]) => ({ id, price: 100, ...(qty === undefined ? {} : { qty }) })) },
  });
  const track = async (events: unknown[]) => {
    const res = await s.call("analytics", "POST", "/1.9/tracking", events);
    expect(res.status).toBe(200);
  };

  test("purchase counts from OrderComplete and Purchase (one order once, quantities summed); no purchases last", async () => {
    // Before any order every product lacks the value: relevance decides.
    expectOrder(await order({ sortBy: "purchase" }), ALL, (id) => [-tier(id)]);

    await track([orderEvent("OrderComplete", "order-1", [["s03", 2]])]);
    expect(await eventually(async () => (await order({ sortBy: "purchase" }))[0] === "s03", 2000)).toBe(true);

    // The same order again as Purchase, in a batch with two new orders.
    await track([
      orderEvent("Purchase", "order-1", [["s03", 2]]),
      orderEvent("OrderComplete", "order-2", [["s07", 3]]),
      orderEvent("Purchase", "order-3", [["s12"]]), // qty defaults to 1
    ]);
    const purchases: Record<string, number> = { s07: 3, s03: 2, s12: 1 };
    const key = (id: string) => [desc(purchases[id]), -tier(id)];
    const expectedHead = ["s07", "s03", "s12"];
    const arrived = await eventually(async () => (await order({ sortBy: "purchase" })).slice(0, 3).join() === expectedHead.join(), 2000);
    const actual = await order({ sortBy: "purchase" });
    expect({ arrived, head: actual.slice(0, 3) }).toEqual({ arrived: true, head: expectedHead });
    expectOrder(actual, ALL, key);
    // Had order-1 been counted twice, s03 (4) would overtake s07 (3): wait a little and look again.
    await Bun.sleep(300);
    expectOrder(await order({ sortBy: "purchase" }), ALL, key);
  });

  test("purchases reported before the product is indexed count once it is", async () => {
    await track([orderEvent("Purchase", "order-4", [["s17", 5]])]);
    await Bun.sleep(100);
    await indexProducts(s, [product("s17", { name: "Orbit Newcomer", collections: ["sorts"] })]);
    const actual = await order({ sortBy: "purchase" });
    expect(actual.slice(0, 4)).toEqual(["s17", "s07", "s03", "s12"]);
    const res = await s.call("admin", "DELETE", "/1.9/products/s17");
    expect(await s.waitForTask(((await res.json()) as { taskId: string }).taskId)).toMatchObject({ status: "complete" });
  });

  test("purchase counts survive a re-index of the product", async () => {
    await indexProducts(s, [{ ...PRODUCT.get("s12")!, description: "A plain piece (s12), re-sent." }]);
    const actual = await order({ sortBy: "purchase" });
    expect(actual.slice(0, 3)).toEqual(["s07", "s03", "s12"]);
  });
});
