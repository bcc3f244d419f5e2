import type { Product, Sku } from "../src/modules/catalog/product-schema.ts";
import { Rng } from "../../demo-store/src/catalog/seeded-random.ts";

/*
 * A catalog of any size from the demo's real products: the real ones first, then copies varied from a seed so
 * that a large catalog keeps a real one's spread of words and facet values. A copy takes its new colour, its added
 * name word and its sizes from what the real catalog uses, drawn as often as the real catalog uses them (a common
 * colour stays common, a rare word stays rare), and a price moved by up to ±30%. The same seed and size give the
 * same catalog, so runs compare; the catalog is made in memory each run and never written to the repository.
 */

/** What copies draw from: every occurrence in the real catalog, so drawing one keeps the real frequencies. */
interface Pools {
  colours: string[];
  nameWords: string[];
  sizes: string[];
}

const WORD = /^[A-Za-z][a-z]{3,}$/;

function poolsOf(real: readonly Product[]): Pools {
  const pools: Pools = { colours: [], nameWords: [], sizes: [] };
  for (const p of real) {
    for (const v of p.variations ?? []) if (v.name) pools.colours.push(v.name);
    for (const word of p.name.split(/\s+/)) if (WORD.test(word)) pools.nameWords.push(word);
    for (const s of p.skus ?? []) if (s.size) pools.sizes.push(s.size);
  }
  return pools;
}

const pick = <T>(pool: readonly T[], random: () => number): T => pool[Math.floor(random() * pool.length)]!;

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `text` with the whole word `from` (any case) written as `to`. */
function recoloured(text: string, from: string, to: string): string {
  return text.replace(new RegExp(`\\b${escaped(from)}\\b`, "gi"), (m) => (m[0] === m[0]!.toLowerCase() ? to.toLowerCase() : to));
}

/** Copy `copy` (2, 3, ...) of a real product: new ids, a recolouring, a name word, sizes and prices of its own. */
function variant(p: Product, copy: number, pools: Pools, random: () => number): Product {
  const suffix = `~v${copy}`;
  const oldColour = p.variations?.[0]?.name;
  const newColour = oldColour ? pick(pools.colours, random) : undefined;
  const colour = (text: string) => (oldColour && newColour ? recoloured(text, oldColour, newColour) : text);
  const word = pick(pools.nameWords, random);
  const factor = 0.7 + random() * 0.6;
  const price = (v: number | undefined) => (v === undefined ? undefined : Math.max(1, Math.round(v * factor)));
  const sizes = new Map<string, string>();
  const size = (s: string | undefined) => {
    if (s === undefined) return undefined;
    if (!sizes.has(s)) sizes.set(s, random() < 0.25 ? pick(pools.sizes, random) : s);
    return sizes.get(s);
  };
  const vid = (id: string | undefined) => (id === undefined ? undefined : id + suffix);
  const sku = (s: Sku): Sku => {
    const out: Sku = { ...s };
    if (s.variationId !== undefined) out.variationId = vid(s.variationId);
    if (s.size !== undefined) out.size = size(s.size);
    if (s.price !== undefined) out.price = price(s.price);
    if (s.promoPrice !== undefined) out.promoPrice = price(s.promoPrice);
    if (s.initialPrice !== undefined) out.initialPrice = price(s.initialPrice);
    return out;
  };
  const out: Product = { ...p, id: p.id + suffix, name: colour(`${p.name} ${word}`) };
  if (p.url) out.url = p.url + suffix;
  if (p.slug) out.slug = p.slug + suffix;
  if (p.description) out.description = colour(p.description);
  if (p.features) out.features = p.features.map(colour);
  if (p.tags) out.tags = p.tags.map(colour);
  if (p.variations) out.variations = p.variations.map((v) => ({ ...v, id: v.id + suffix, ...(v.name ? { name: colour(v.name) } : {}) }));
  if (p.media)
    out.media = p.media.map((m) => ({
      ...m,
      ...(m.variationId === undefined ? {} : { variationId: vid(m.variationId) }),
      ...(m.altText === undefined ? {} : { altText: colour(m.altText) }),
    }));
  if (p.skus) out.skus = p.skus.map(sku);
  return out;
}

/**
 * `size` products: the real ones first (all of them, or the first `size`), then seeded variants of them in turn.
 * Made one at a time as they are asked for, so a caller indexing a million in bulks holds one bulk at a time.
 */
export function* multipliedProducts(real: readonly Product[], size: number, seed = 42): Generator<Product> {
  if (real.length === 0) return;
  const pools = poolsOf(real);
  const rng = new Rng(seed);
  const random = () => rng.next();
  for (let made = 0, copy = 1; made < size; copy++)
    for (let i = 0; i < real.length && made < size; i++, made++) yield copy === 1 ? real[i]! : variant(real[i]!, copy, pools, random);
}

/** `size` products at once, in one array. */
export const multiplyCatalog = (real: readonly Product[], size: number, seed = 42): Product[] => [...multipliedProducts(real, size, seed)];
