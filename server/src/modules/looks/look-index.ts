import type { CatalogModel } from "../catalog/catalog-models.ts";
import { lowestPaidPrice } from "../catalog/price-range.ts";
import type { Product } from "../catalog/product-schema.ts";
import { productInStock, variationAvailable } from "../catalog/product-stock.ts";
import { paletteOf, UNKNOWN_PALETTE, type Palette } from "./colour-harmony.ts";
import { genderCode, tagMasks } from "./look-rules.ts";
import { kindOf, type Kind } from "./look-slots.ts";
import { factsOf, type Facts } from "../catalog/taste-facts.ts";

/*
 * What the look composer reads of a store's catalog: each product that can be part of a look, as its kind,
 * gender and age group, seasons and occasions, price (and its percentile among its own kind, so "a sensible
 * band of the source's price level" compares trousers with trousers), stock and colours. Kept per kind, so
 * filling a slot scans only the products that can fill it.
 */

/** Priced products a kind needs before its price percentiles count. */
const MIN_PRICED = 20;
/** Colours per product considered at most: the first ones that can be bought. */
const MAX_COLOURS = 4;

export interface LookEntry {
  id: string;
  kind: Kind;
  /** The whole category path, lower case: two pieces of one category are never in one look. */
  category: string;
  /** The same as a small number (LookIndex.put), compared per candidate. */
  categoryId: number;
  /** genderCode(): 0 fits any look. */
  gender: number;
  ageGroup?: string;
  /** The age group as a small number (0: none stated). */
  ageId: number;
  /** Bit masks (look-rules.ts); 0 states none (a kind nobody wears for sport that states none: all but sports). */
  seasons: number;
  occasions: number;
  /** Its colours a shopper can buy (all, when none can), each with its variation. */
  colours: { variationId?: string; palette: Palette }[];
  inStock: boolean;
  /** log of its lowest paid price, NaN without prices. */
  logPrice: number;
  /** Its price's percentile among its kind (0 cheapest, 1 dearest); NaN without prices or too few priced; see LookIndex.refresh. */
  pricePercentile: number;
  /** What a shopper's taste is compared with (brand, category leaf, colours, price band). */
  facts: Facts;
}

export function lookEntry(p: Product): LookEntry | null {
  const kind = kindOf(p.categories);
  if (!kind) return null;
  const colours = (p.variations ?? []).map((v) => ({
    variationId: v.id,
    palette: paletteOf(v.name),
    available: variationAvailable(p, v.id),
  }));
  const buyable = colours.filter((c) => c.available);
  const price = lowestPaidPrice(p.skus);
  return {
    id: p.id,
    kind,
    category: (p.categories ?? []).join(" > ").toLowerCase(),
    categoryId: -1,
    ageId: 0,
    gender: genderCode(p.gender),
    ...(p.ageGroup ? { ageGroup: p.ageGroup } : {}),
    ...tagMasks(p.tags, kind),
    colours: (buyable.length ? buyable : colours).slice(0, MAX_COLOURS).map(({ variationId, palette }) => ({ variationId, palette })),
    inStock: productInStock(p),
    logPrice: price === null ? NaN : Math.log(price),
    pricePercentile: NaN,
    facts: factsOf(p),
  };
}

/** The palette a look shows of an entry: the asked variation's, else its first. */
export function paletteFor(entry: LookEntry, variationId?: string): { variationId?: string; palette: Palette } {
  return entry.colours.find((c) => c.variationId === variationId) ?? entry.colours[0] ?? { palette: UNKNOWN_PALETTE };
}

/**
 * A kind's in-stock entries as columns: filling a slot scans tens of thousands of them per request, and reading
 * numbers from typed arrays is what keeps that near a millisecond (objects scattered on the heap were 10×
 * slower, most of it waiting on memory).
 */
export interface KindColumns {
  entries: LookEntry[];
  gender: Uint8Array;
  ageId: Int32Array;
  categoryId: Int32Array;
  seasons: Uint8Array;
  occasions: Uint8Array;
  pricePercentile: Float32Array;
  /** Entry i's palette ids are palettes[colourStart[i] .. colourStart[i + 1]). */
  colourStart: Uint32Array;
  palettes: Uint32Array;
}

export class LookIndex implements CatalogModel {
  private readonly entries = new Map<string, LookEntry>();
  private readonly byKind = new Map<Kind, Set<LookEntry>>();
  private readonly columns = new Map<Kind, KindColumns>();
  private readonly categoryIds = new Map<string, number>();
  /** Age groups as numbers from 1 (0: none stated). */
  private readonly ageIds = new Map<string, number>();
  /** Kinds whose price percentiles and columns are out of date. */
  private readonly stale = new Set<Kind>();

  get size(): number {
    return this.entries.size;
  }

  put(product: Product): void {
    this.remove(product.id);
    const entry = lookEntry(product);
    if (!entry) return;
    entry.categoryId = idIn(this.categoryIds, entry.category, 0);
    entry.ageId = entry.ageGroup ? idIn(this.ageIds, entry.ageGroup, 1) : 0;
    this.entries.set(entry.id, entry);
    let kind = this.byKind.get(entry.kind);
    if (!kind) this.byKind.set(entry.kind, (kind = new Set()));
    kind.add(entry);
    this.stale.add(entry.kind);
  }

  remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.byKind.get(entry.kind)?.delete(entry);
    this.stale.add(entry.kind);
  }

  get(id: string): LookEntry | undefined {
    this.refresh();
    return this.entries.get(id);
  }

  /** A kind's in-stock entries as columns, current. */
  ofKind(kind: Kind): KindColumns | undefined {
    this.refresh();
    return this.columns.get(kind);
  }

  /** Price percentiles and columns again for the kinds that changed (a few ms for the demo catalog). */
  private refresh(): void {
    if (this.stale.size === 0) return;
    for (const kind of this.stale) {
      const all = [...(this.byKind.get(kind) ?? [])];
      const priced = all.filter((e) => !Number.isNaN(e.logPrice)).sort((a, b) => a.logPrice - b.logPrice);
      // Equal prices share a percentile (their first position), so the order of ties does not matter. Among
      // a handful of products a percentile says little: a kind with fewer than MIN_PRICED has none.
      let first = 0;
      priced.forEach((e, i) => {
        if (i > 0 && e.logPrice !== priced[i - 1]!.logPrice) first = i;
        e.pricePercentile = priced.length >= MIN_PRICED ? first / (priced.length - 1) : NaN;
      });
      this.columns.set(kind, columnsOf(all.filter((e) => e.inStock)));
    }
    this.stale.clear();
  }
}

function idIn(ids: Map<string, number>, key: string, from: number): number {
  let id = ids.get(key);
  if (id === undefined) ids.set(key, (id = ids.size + from));
  return id;
}

function columnsOf(entries: LookEntry[]): KindColumns {
  const n = entries.length;
  const colourStart = new Uint32Array(n + 1);
  entries.forEach((e, i) => (colourStart[i + 1] = colourStart[i]! + Math.max(1, e.colours.length)));
  const palettes = new Uint32Array(colourStart[n]!);
  entries.forEach((e, i) => e.colours.forEach((c, j) => (palettes[colourStart[i]! + j] = c.palette.id)));
  return {
    entries,
    gender: Uint8Array.from(entries, (e) => e.gender),
    ageId: Int32Array.from(entries, (e) => e.ageId),
    categoryId: Int32Array.from(entries, (e) => e.categoryId),
    seasons: Uint8Array.from(entries, (e) => e.seasons),
    occasions: Uint8Array.from(entries, (e) => e.occasions),
    pricePercentile: Float32Array.from(entries, (e) => e.pricePercentile),
    colourStart,
    palettes,
  };
}
