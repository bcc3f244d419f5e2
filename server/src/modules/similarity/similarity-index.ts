import type { Oklab } from "culori";
import { colourPoint, pointDistance } from "../catalog/colours.ts";
import type { CatalogModel } from "../catalog/catalog-models.ts";
import type { Product } from "../catalog/product-schema.ts";
import { productFeatures, type ProductFeatures } from "./product-features.ts";
import type { MeasuredColours } from "../catalog/catalog-models.ts";

/*
 * "More like this" for one store, from the catalog alone. A candidate is scored in blocks, each between 0 and 1
 * and weighted (WEIGHTS): the category path (same leaf, same parent, same top level), the words (cosine of
 * TF-IDF vectors of name, features and description), the colour (OKLab distance of the closest variation to
 * the source's, or to the asked variant's), the price (ratio), the brand. Hard rules first: gender compatible
 * (unisex fits both; unstated fits all), the same age group where both state one, never the source itself nor
 * its variants sold as separate products (its product line: brand and name without colour words).
 * Candidates are the source's category leaf, widened to its parent and its top level until there are enough, so
 * a product with no close neighbours still gets its nearest sensible ones, never filler from unrelated
 * departments (a product without categories is compared with every other). Ranked: in stock
 * first, then by score; the first page keeps at most BRAND_CAP of a brand and LINE_CAP of a product line
 * (the rest move down, they are not dropped).
 */

const WEIGHTS = { category: 0.35, text: 0.3, colour: 0.22, price: 0.08, brand: 0.05 } as const;
export type Contributions = Record<keyof typeof WEIGHTS, number>;

/** Similar products answered at most (the carousel pages through them). */
const MAX_SIMILAR = 120;
/** Candidates wanted before the search stops widening from the leaf category. */
const ENOUGH_CANDIDATES = 200;
/** Of the first page, at most this many of one brand, and of one product line. */
const BRAND_CAP = 4;
const LINE_CAP = 2;
const FIRST_PAGE = 30;
/** OKLab distance at which colours count as unrelated (score 0). */
const COLOUR_SPAN = 0.35;
/** Price ratio at which prices count as unrelated (score 0): a third or three times the source's. */
const PRICE_SPAN = Math.log(3);
const CATEGORY_BY_DEPTH_MATCHED = [0, 0.25, 0.6, 1];

export interface Similar {
  id: string;
  score: number;
  contributions: Contributions;
}

interface Entry {
  /** Without its terms, which live on as termIds and termCounts. */
  features: Omit<ProductFeatures, "terms">;
  termIds: Uint32Array;
  termCounts: Float32Array;
  /**
   * Its known colours as [L, a, b, chroma] quadruples (colours.ts), read per candidate without objects: those of
   * variations with a size to buy, or all when none has.
   */
  colours: Float32Array;
  /** Its category path prefixes as ids (comparing numbers, not strings, per candidate). */
  pathIds: Int32Array;
  /** Its TF-IDF weights (per termIds) and their length, as of `weightsAt` (the idfs' generation). */
  weights: Float32Array;
  norm: number;
  weightsAt: number;
}

export class SimilarityIndex implements CatalogModel {
  private readonly entries = new Map<string, Entry>();
  /** Entries by category path prefix: the candidate sets, iterated without a lookup per candidate. */
  private readonly byPath = new Map<string, Set<Entry>>();
  private readonly pathIds = new Map<string, number>();
  private readonly termIds = new Map<string, number>();
  private docFrequency = new Float64Array(1024);
  /** Inverse document frequency per term as of `idfAt`; the generation moves on every put and remove. */
  private idfs = new Float64Array(0);
  private idfAt = -1;
  private generation = 0;
  /** Scratch: the source's weight per term id while one ranking runs. */
  private sourceWeights = new Float64Array(1024);

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** `measured`: the product's image colours per variation (productFeatures), when image analysis ran. */
  put(product: Product, measured?: MeasuredColours): void {
    const features = productFeatures(product, measured);
    this.remove(features.id);
    const ids: number[] = [];
    const counts: number[] = [];
    for (const [term, count] of features.terms) {
      let id = this.termIds.get(term);
      if (id === undefined) {
        id = this.termIds.size;
        this.termIds.set(term, id);
        if (id >= this.docFrequency.length) {
          const grown = new Float64Array(id * 2);
          grown.set(this.docFrequency);
          this.docFrequency = grown;
        }
      }
      this.docFrequency[id]!++;
      ids.push(id);
      counts.push(count);
    }
    const pathIds = Int32Array.from(features.paths, (path) => {
      let id = this.pathIds.get(path);
      if (id === undefined) this.pathIds.set(path, (id = this.pathIds.size));
      return id;
    });
    const { terms: _terms, ...kept } = features;
    // A colour counts where a size of it can be bought: a shopper on the red variant is shown red ones to buy.
    const buyable = features.colours.filter((c) => c.available);
    const entry = {
      features: kept,
      colours: colourPoints((buyable.length ? buyable : features.colours).map((c) => c.colour)),
      termIds: Uint32Array.from(ids),
      termCounts: Float32Array.from(counts),
      pathIds,
      weights: new Float32Array(ids.length),
      norm: 0,
      weightsAt: -1,
    };
    this.entries.set(features.id, entry);
    this.generation++;
    for (const path of features.paths) {
      const set = this.byPath.get(path) ?? new Set<Entry>();
      set.add(entry);
      this.byPath.set(path, set);
    }
  }

  remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.generation++;
    for (const term of entry.termIds) this.docFrequency[term]!--;
    for (const path of entry.features.paths) this.byPath.get(path)?.delete(entry);
  }

  /** Products similar to `sourceId`, best first, at most MAX_SIMILAR; null when the store has no such product. */
  similar(sourceId: string, variantId?: string): Similar[] | null {
    const source = this.entries.get(sourceId);
    if (!source) return null;
    const f = source.features;
    const asked = f.colours.find((c) => c.variationId === variantId)?.colour;
    const sourceColours = asked ? colourPoints([asked]) : source.colours;
    this.refreshIdfs();
    const sourceNorm = this.weightsOf(source);
    try {
      /** Writes a candidate's score parts into `out` and answers their sum: one formula for ranking and explaining. */
      const score = (other: Entry, out: Contributions): number => {
        const o = other.features;
        out.category = WEIGHTS.category * CATEGORY_BY_DEPTH_MATCHED[sharedDepth(source.pathIds, other.pathIds)]!;
        out.text = WEIGHTS.text * this.cosine(sourceNorm, other);
        out.colour = WEIGHTS.colour * colourScore(sourceColours, other.colours);
        out.price = WEIGHTS.price * priceScore(f.logPrice, o.logPrice);
        out.brand = f.brand && f.brand === o.brand ? WEIGHTS.brand : 0;
        return total(out);
      };
      // Scored lean (an entry and a key each, the parts into one reused object), ranked in stock first: a score is
      // at most 1, so 2 + score puts every product in stock above every one that is not.
      const scratch: Contributions = { category: 0, text: 0, colour: 0, price: 0, brand: 0 };
      const entries: Entry[] = [];
      const keys: number[] = [];
      for (const other of this.candidates(f)) {
        const o = other.features;
        // The source and its own variants sold as separate products (the same line in other colours) are not alternatives.
        if (other === source || o.line === f.line || !compatible(f, o)) continue;
        entries.push(other);
        keys.push((o.inStock ? 2 : 0) + score(other, scratch));
      }
      const kept = Math.min(keys.length, MAX_SIMILAR * 2);
      const threshold = kept ? Float64Array.from(keys).sort()[keys.length - kept]! : Infinity;
      const ranked: (Similar & { key: number; brand: string; line: string })[] = [];
      entries.forEach((other, i) => {
        if (keys[i]! < threshold) return;
        const contributions = { ...scratch };
        const { id, brand, line } = other.features;
        ranked.push({ id, score: score(other, contributions), contributions, key: keys[i]!, brand, line });
      });
      ranked.sort((a, b) => b.key - a.key || (a.id < b.id ? -1 : 1));
      return diversified(ranked.slice(0, MAX_SIMILAR * 2))
        .slice(0, MAX_SIMILAR)
        .map(({ id, score, contributions }) => ({ id, score, contributions }));
    } finally {
      for (const term of source.termIds) this.sourceWeights[term] = 0;
    }
  }

  /** Every term's idf again when the catalog changed since they were computed (a few ms for 50k products). */
  private refreshIdfs(): void {
    if (this.idfAt === this.generation) return;
    if (this.idfs.length < this.termIds.size) this.idfs = new Float64Array(this.docFrequency.length);
    const n = this.entries.size;
    for (let term = 0; term < this.termIds.size; term++) this.idfs[term] = Math.log(1 + n / Math.max(1, this.docFrequency[term]!));
    this.idfAt = this.generation;
  }

  /**
   * The source's leaf category, widened level by level until there are enough, but never past its top level: a
   * ring's nearest products outside jewellery would be filler. A product without categories is compared with all.
   */
  private candidates(f: Held): Iterable<Entry> {
    for (let level = f.paths.length - 1; level >= 0; level--) {
      const set = this.byPath.get(f.paths[level]!);
      if (set && (set.size > ENOUGH_CANDIDATES || level === 0)) return set;
    }
    return this.entries.values();
  }

  /** Writes the source's TF-IDF weights into the scratch array; returns their norm. */
  private weightsOf(source: Entry): number {
    if (this.sourceWeights.length < this.termIds.size) this.sourceWeights = new Float64Array(this.termIds.size * 2);
    this.refreshWeights(source);
    source.termIds.forEach((term, i) => (this.sourceWeights[term] = source.weights[i]!));
    return source.norm;
  }

  private refreshWeights(entry: Entry): void {
    if (entry.weightsAt === this.idfAt) return;
    let sum = 0;
    for (let i = 0; i < entry.termIds.length; i++) {
      const w = entry.termCounts[i]! * this.idfs[entry.termIds[i]!]!;
      entry.weights[i] = w;
      sum += w * w;
    }
    entry.norm = Math.sqrt(sum);
    entry.weightsAt = this.idfAt;
  }

  private cosine(sourceNorm: number, other: Entry): number {
    this.refreshWeights(other);
    const { termIds, weights } = other;
    let dot = 0;
    for (let i = 0; i < termIds.length; i++) dot += weights[i]! * this.sourceWeights[termIds[i]!]!;
    return sourceNorm && other.norm ? dot / (sourceNorm * other.norm) : 0;
  }
}

const total = (c: Contributions) => c.category + c.text + c.colour + c.price + c.brand;

type Held = Entry["features"];

function compatible(a: Held, b: Held): boolean {
  if (a.gender && b.gender && a.gender !== b.gender && a.gender !== "Unisex" && b.gender !== "Unisex") return false;
  return !(a.ageGroup && b.ageGroup && a.ageGroup !== b.ageGroup);
}

/** How much of the category path two products share: 3 the leaf, 2 the parent, 1 the top level only, 0 nothing. */
function sharedDepth(a: Int32Array, b: Int32Array): number {
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++;
  if (shared === 0) return 0;
  if (shared === a.length && shared === b.length) return 3;
  return shared >= a.length - 1 ? 2 : 1;
}

function colourPoints(colours: (Oklab | null)[]): Float32Array {
  return Float32Array.from(colours.flatMap((c) => (c ? colourPoint(c) : [])));
}

/** The closest pair of a source colour and a candidate colour, scored 1 (the same) down to 0 (COLOUR_SPAN apart). */
function colourScore(source: Float32Array, candidate: Float32Array): number {
  let best = Infinity;
  for (let i = 0; i < source.length; i += 4) {
    for (let j = 0; j < candidate.length; j += 4) {
      const d = pointDistance(source, i, candidate, j);
      if (d < best) best = d;
    }
  }
  return best === Infinity ? 0 : Math.max(0, 1 - best / COLOUR_SPAN);
}

function priceScore(a: number | null, b: number | null): number {
  return a === null || b === null ? 0 : Math.max(0, 1 - Math.abs(a - b) / PRICE_SPAN);
}

/** The first page with at most BRAND_CAP per brand and LINE_CAP per product line; the others follow in order. */
function diversified<T extends { brand: string; line: string }>(ranked: T[]): T[] {
  const first: T[] = [];
  const later: T[] = [];
  const brands = new Map<string, number>();
  const lines = new Map<string, number>();
  for (const item of ranked) {
    const b = brands.get(item.brand) ?? 0;
    const l = lines.get(item.line) ?? 0;
    if (first.length < FIRST_PAGE && (!item.brand || b < BRAND_CAP) && l < LINE_CAP) {
      first.push(item);
      brands.set(item.brand, b + 1);
      lines.set(item.line, l + 1);
    } else {
      later.push(item);
    }
  }
  return [...first, ...later];
}
