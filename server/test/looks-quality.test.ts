import { beforeAll, expect, test } from "bun:test";
import { evalProducts } from "../eval/catalog.ts";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { harmony, paletteOf } from "../src/modules/looks/colour-harmony.ts";
import { composeLooks, MAX_LOOKS, type LookPiece } from "../src/modules/looks/look-composer.ts";
import { LookIndex } from "../src/modules/looks/look-index.ts";
import { genderCode, tagMasks } from "../src/modules/looks/look-rules.ts";
import { kindOf, LOOK_TEMPLATES } from "../src/modules/looks/look-slots.ts";

/*
 * Complete the look on the real demo catalog (the eval's 20,000 products), from the catalog alone: for 300
 * sources spread over the catalog, how many looks each gets, how many of its template's slots are filled, and
 * whether any piece breaks a rule a shopper would notice at once (another gender or age group, the source's own
 * category, two pieces of one category, two loud pieces, colours that clash, a piece in more than two looks);
 * and how often a look's products agree in usage and in season where the catalog states them. Printed, and held
 * so they cannot regress.
 */

/**
 * Measured 2026-11-29 (issue 41; the first four on this sample before looks had to agree in usage, and held
 * since). These may only go up: raise them when the model improves; never loosen them to make a change pass.
 * The rule breaks must stay 0.
 */
const MEASURED = {
  withLooks: 0.996,
  looksPerProduct: 8.88,
  slotCoverage: 0.993,
  storiesPerProduct: 4.11,
  usageAgreement: 0.995,
  seasonAgreement: 0.75,
};

const SOURCES = 300;

let byId: Map<string, Product>;
let sampled: { source: Product; looks: LookPiece[][] }[];

beforeAll(() => {
  const products = evalProducts();
  byId = new Map(products.map((p) => [p.id, p]));
  const index = new LookIndex();
  for (const p of products) index.put(p);
  // Spread over the whole sample: a whole-number step of 66 landed on one of its three interleaved sources only.
  sampled = Array.from({ length: SOURCES }, (_, k) => products[Math.floor((k * products.length) / SOURCES)]!).map((source) => ({
    source,
    looks: composeLooks(index, source.id, { evidence: new Map(), taken: [], wanted: MAX_LOOKS }),
  }));
}, 120_000);

const inStock = (p: Product) => !p.skus?.length || p.skus.some((s) => s.availability === "InStock" || (s.inventoryQuantity ?? 0) > 0);
const paletteOfProduct = (p: Product, variationId?: string) =>
  paletteOf((p.variations?.find((v) => v.id === variationId) ?? p.variations?.[0])?.name);

test("looks per product and slot coverage on the demo catalog, with no piece breaking a rule", () => {
  const withTemplate = sampled.filter(({ source }) => {
    const kind = kindOf(source.categories);
    return kind && LOOK_TEMPLATES[kind] && inStock(source);
  });
  const withLooks = withTemplate.filter((r) => r.looks.length > 0).length / withTemplate.length;
  const looksPerProduct = withTemplate.reduce((sum, r) => sum + r.looks.length, 0) / withTemplate.length;
  let slots = 0;
  let filled = 0;
  let pieces = 0;
  const breaks = { gender: 0, ageGroup: 0, sourceCategory: 0, repeatedCategory: 0, outOfStock: 0, loudPieces: 0, clashes: 0, overused: 0 };
  let stories = 0;
  for (const { source, looks } of withTemplate) {
    const templates = LOOK_TEMPLATES[kindOf(source.categories)!]!;
    const uses = new Map<string, number>();
    const storySet = new Set<string>();
    for (const look of looks) {
      const template = templates.find(
        (t) =>
          look.every((p) => t.some((s) => s.name === p.slot)) &&
          t.filter((s) => !s.optional).every((s) => look.some((p) => p.slot === s.name)),
      )!;
      expect(template).toBeDefined();
      slots += template.length;
      filled += look.length;
      const products = look.map((p) => byId.get(p.id)!);
      const palettes = [paletteOfProduct(source), ...look.map((p) => paletteOfProduct(byId.get(p.id)!, p.variationId))];
      storySet.add(
        palettes
          .map((p) => (p.accent ? Math.round(p.hue / 30) : p.busy ? "print" : "n"))
          .sort()
          .join(),
      );
      const genders = new Set([source, ...products].map((p) => genderCode(p.gender)).filter((g) => g !== 0));
      if (genders.size > 1) breaks.gender++;
      const ages = new Set([source, ...products].map((p) => p.ageGroup).filter(Boolean));
      if (ages.size > 1) breaks.ageGroup++;
      const categories = products.map((p) => (p.categories ?? []).join(" > "));
      breaks.sourceCategory += categories.filter((c) => c === (source.categories ?? []).join(" > ")).length;
      if (new Set(categories).size < categories.length) breaks.repeatedCategory++;
      breaks.outOfStock += products.filter((p) => !inStock(p)).length;
      if (palettes.filter((p) => p.loud).length > 1) breaks.loudPieces++;
      for (let i = 0; i < palettes.length; i++)
        for (let j = i + 1; j < palettes.length; j++) if (harmony(palettes[i]!, palettes[j]!) === 0) breaks.clashes++;
      for (const p of look) uses.set(p.id, (uses.get(p.id) ?? 0) + 1);
      pieces += look.length;
    }
    breaks.overused += [...uses.values()].filter((n) => n > 2).length;
    stories += storySet.size;
  }
  const slotCoverage = filled / slots;
  const storiesPerProduct = stories / withTemplate.length;
  console.log(
    `complete the look, ${sampled.length} sampled demo products (${withTemplate.length} of a kind with looks): ` +
      `with looks ${withLooks.toFixed(3)}, looks per product ${looksPerProduct.toFixed(2)}, slot coverage ${slotCoverage.toFixed(3)}, ` +
      `colour stories per product ${storiesPerProduct.toFixed(2)}, ${pieces} pieces; rule breaks ${JSON.stringify(breaks)}`,
  );
  expect(withTemplate.length).toBeGreaterThanOrEqual(200);
  expect(withLooks).toBeGreaterThanOrEqual(MEASURED.withLooks);
  expect(looksPerProduct).toBeGreaterThanOrEqual(MEASURED.looksPerProduct);
  expect(slotCoverage).toBeGreaterThanOrEqual(MEASURED.slotCoverage);
  expect(storiesPerProduct).toBeGreaterThanOrEqual(MEASURED.storiesPerProduct);
  expect(breaks).toEqual({
    gender: 0,
    ageGroup: 0,
    sourceCategory: 0,
    repeatedCategory: 0,
    outOfStock: 0,
    loudPieces: 0,
    clashes: 0,
    overused: 0,
  });
});

/**
 * Whether the stated values of a look's products agree: every product that states one shares at least one
 * value (after the rules' folding) with all the others. Null when fewer than two state one (nothing to agree on).
 */
function agreement(masks: number[]): boolean | null {
  const stated = masks.filter((m) => m !== 0);
  return stated.length < 2 ? null : stated.reduce((a, b) => a & b) !== 0;
}

test("the pieces of a look agree in usage and season where the catalog states them", () => {
  const tally = { usage: { looks: 0, agree: 0 }, season: { looks: 0, agree: 0 } };
  for (const { source, looks } of sampled)
    for (const look of looks) {
      const masks = [source, ...look.map((p) => byId.get(p.id)!)].map((p) => tagMasks(p.tags));
      for (const [name, of] of [
        ["usage", (m: { occasions: number }) => m.occasions],
        ["season", (m: { seasons: number }) => m.seasons],
      ] as const) {
        const agrees = agreement(masks.map(of));
        if (agrees === null) continue;
        tally[name].looks++;
        if (agrees) tally[name].agree++;
      }
    }
  const usage = tally.usage.agree / tally.usage.looks;
  const season = tally.season.agree / tally.season.looks;
  console.log(
    `complete the look, agreement where two or more of a look's products state it: usage ${usage.toFixed(3)} of ${tally.usage.looks} looks, ` +
      `season ${season.toFixed(3)} of ${tally.season.looks} looks`,
  );
  expect(tally.usage.looks).toBeGreaterThanOrEqual(1000);
  expect(tally.season.looks).toBeGreaterThanOrEqual(1000);
  expect(usage).toBeGreaterThanOrEqual(MEASURED.usageAgreement);
  expect(season).toBeGreaterThanOrEqual(MEASURED.seasonAgreement);
});

test("a product whose category has no looks (innerwear, beauty) gets none", () => {
  const none = sampled.filter(({ source }) => !kindOf(source.categories));
  expect(none.length).toBeGreaterThan(0);
  expect(none.every((r) => r.looks.length === 0)).toBe(true);
});
