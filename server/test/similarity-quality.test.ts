import { beforeAll, expect, test } from "bun:test";
import { differenceCiede2000, type Oklab } from "culori";
import { evalProducts } from "../eval/catalog.ts";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { colourOf } from "../src/modules/catalog/colours.ts";
import { productFeatures } from "../src/modules/similarity/product-features.ts";
import { SimilarityIndex, type Similar } from "../src/modules/similarity/similarity-index.ts";

/*
 * Similar products on the real demo catalog (the eval's 20,000 products), from the catalog alone: for 200 sources
 * spread over the catalog, how much of the top 10 agrees with the source on gender and on the category leaf, and
 * how far its colours are. Printed, and held so they cannot regress.
 */

/**
 * Measured 2026-11-23 (issue 11). These may only go up (the colour distance only down): raise them when the model
 * improves; never loosen them to make a change pass. (Once, they went down by a requirement: the source's own
 * variants sold as separate products, its closest matches, are no longer offered: 0.962 -> 0.958, 0.944 -> 0.942.)
 */
const MEASURED = { sameGender: 0.957, compatibleGender: 1, sameLeaf: 0.941, medianColourDe2000: 0 };

const SOURCES = 200;
const TOP = 10;

let products: Product[];
let byId: Map<string, Product>;
let index: SimilarityIndex;
let results: { source: Product; top: Similar[] }[];

beforeAll(() => {
  products = evalProducts();
  byId = new Map(products.map((p) => [p.id, p]));
  index = new SimilarityIndex();
  for (const p of products) index.put(p);
  const every = Math.floor(products.length / SOURCES);
  results = products
    .filter((_, i) => i % every === 0)
    .slice(0, SOURCES)
    .map((source) => ({ source, top: index.similar(source.id)!.slice(0, TOP) }));
}, 120_000);

const leafOf = (p: Product) => (p.categories ?? []).join(" > ");
const share = (test: (source: Product, other: Product) => boolean) => {
  const pairs = results.flatMap(({ source, top }) => top.map((s) => [source, byId.get(s.id)!] as const));
  return pairs.filter(([source, other]) => test(source, other)).length / pairs.length;
};
const de2000 = differenceCiede2000();
const asColour = (c: Oklab) => ({ ...c, mode: "oklab" as const });

test("similar products agree with their source on gender and category, and look alike", () => {
  const sameGender = share((s, o) => s.gender === o.gender);
  const compatibleGender = share(
    (s, o) => !s.gender || !o.gender || s.gender === o.gender || s.gender === "Unisex" || o.gender === "Unisex",
  );
  const sameLeaf = share((s, o) => leafOf(s) === leafOf(o));
  const distances = results
    .flatMap(({ source, top }) =>
      top.map((s) => [colourOf(source.variations?.[0]?.name), colourOf(byId.get(s.id)!.variations?.[0]?.name)] as const),
    )
    .flatMap(([a, b]) => (a && b ? [de2000(asColour(a), asColour(b))] : []))
    .sort((a, b) => a - b);
  const medianColourDe2000 = distances[distances.length >> 1]!;
  console.log(
    `similar products, top ${TOP} of ${results.length} sources: same gender ${sameGender.toFixed(3)}, compatible gender ${compatibleGender.toFixed(3)}, ` +
      `same category leaf ${sameLeaf.toFixed(3)}, median colour distance ${medianColourDe2000.toFixed(2)} ΔE2000 (${distances.length} pairs with colours)`,
  );
  expect(results.every((r) => r.top.length === TOP)).toBe(true);
  expect(sameGender).toBeGreaterThanOrEqual(MEASURED.sameGender);
  expect(compatibleGender).toBeGreaterThanOrEqual(MEASURED.compatibleGender);
  expect(sameLeaf).toBeGreaterThanOrEqual(MEASURED.sameLeaf);
  expect(medianColourDe2000).toBeLessThanOrEqual(MEASURED.medianColourDe2000);
});

test("never the source nor its variants, never an incompatible age group, and a top 10 that is not one brand when others exist", () => {
  // A product of the same brand and name but for its colour words is the same design: never its alternative.
  const design = new Map(products.map((p) => [p.id, designOf(p)]));
  const byDesign = new Map<string, number>();
  for (const key of design.values()) byDesign.set(key, (byDesign.get(key) ?? 0) + 1);
  let variantsElsewhere = 0;
  for (const { source } of results) {
    const all = index.similar(source.id)!;
    expect(all.some((s) => s.id === source.id)).toBe(false);
    const own = design.get(source.id)!;
    expect(all.filter((s) => design.get(s.id) === own).map((s) => byId.get(s.id)!.name)).toEqual([]);
    variantsElsewhere += byDesign.get(own)! - 1;
    for (const s of all) {
      const other = byId.get(s.id)!;
      if (source.ageGroup && other.ageGroup) expect(other.ageGroup).toBe(source.ageGroup);
    }
    const brandOf = (s: Similar) => (byId.get(s.id)!.brand ?? "").toLowerCase();
    if (new Set(all.map(brandOf)).size < 8) continue;
    const counts = new Map<string, number>();
    for (const s of all.slice(0, TOP)) counts.set(brandOf(s), (counts.get(brandOf(s)) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(4);
  }
  // The rule was tested: the sample's sources do have variants in the catalog.
  expect(variantsElsewhere).toBeGreaterThan(0);
});

/** Brand and name, lower case, without the words of its variations' names (variants differ by those only). */
function designOf(p: Product): string {
  const colour = new Set((p.variations ?? []).flatMap((v) => (v.name ?? "").toLowerCase().split(/[^a-z0-9]+/)));
  const words = p.name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !colour.has(w));
  return `${(p.brand ?? "").toLowerCase()}|${words.join(" ")}`;
}

test("the asked variant's colour pulls same-coloured alternatives forward", () => {
  const item = (id: string, colours: string[], extra: Partial<Product> = {}): Product => ({
    id,
    name: `Cotton Shirt ${id}`,
    brand: `Brand ${id}`,
    categories: ["Apparel", "Topwear", "Shirts"],
    gender: "Men",
    variations: colours.map((name) => ({ id: `${id}-${name}`, name })),
    skus: [{ price: 30, availability: "InStock" }],
    ...extra,
  });
  const small = new SimilarityIndex();
  small.put(item("source", ["Red", "Navy Blue"]));
  for (let i = 0; i < 5; i++) small.put(item(`red${i}`, ["Maroon"]));
  for (let i = 0; i < 5; i++) small.put(item(`blue${i}`, ["Blue"]));
  const firstFive = (variantId: string) =>
    small
      .similar("source", variantId)!
      .slice(0, 5)
      .map((s) => s.id.replace(/\d$/, ""));
  expect(firstFive("source-Red")).toEqual(Array(5).fill("red"));
  expect(firstFive("source-Navy Blue")).toEqual(Array(5).fill("blue"));
  // A red one whose red is sold out in every size (its grey is not) is not offered as a red one.
  small.put(
    item("soldout", ["Red", "Grey"], {
      skus: [
        { variationId: "soldout-Red", size: "M", price: 30, availability: "OutOfStock" },
        { variationId: "soldout-Grey", size: "M", price: 30, availability: "InStock" },
      ],
    }),
  );
  expect(firstFive("source-Red")).toEqual(Array(5).fill("red"));
  // A women's shirt and a kids' one are never offered for a men's adult shirt; a unisex one is.
  small.put(item("women", ["Red"], { gender: "Women" }));
  small.put(item("unisex", ["Red"], { gender: "Unisex" }));
  small.put(item("kids", ["Red"], { ageGroup: "Kids" }));
  small.put(item("adult", ["Red"], { ageGroup: "Adults" }));
  const ids = small.similar("source")!.map((s) => s.id);
  expect(ids).toContain("unisex");
  expect(ids).not.toContain("women");
  expect(small.similar("kids")!.map((s) => s.id)).not.toContain("adult");
  expect(small.similar("missing")).toBeNull();
});

test("an extreme product (1,000 variations, 500 long features) brings a bounded number of colours and words", () => {
  const big: Product = {
    id: "huge",
    name: "Cotton Shirt Huge",
    categories: ["Apparel", "Topwear", "Shirts"],
    features: Array.from({ length: 500 }, (_, i) => `feature${i} ${"word".repeat(3)}${i} pattern${i % 50}`),
    variations: Array.from({ length: 1000 }, (_, i) => ({
      id: `huge-${i}`,
      name: ["Red", "Blue", "Green", "Navy Blue", "Maroon"][i % 5]!,
    })),
  };
  const features = productFeatures(big);
  expect(features.terms.size).toBeLessThanOrEqual(120);
  expect(features.colours.length).toBeLessThanOrEqual(24);
  index.put(big);
  expect(index.similar("huge")!.length).toBeGreaterThan(0);
  index.remove("huge");
});
