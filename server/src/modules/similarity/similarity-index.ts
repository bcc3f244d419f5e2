import { colourPoint, pointDistance } from "../catalog/colours.ts";
import type { CatalogModel } from "../catalog/catalog-models.ts";
import type { Product } from "../catalog/product-schema.ts";
import { productFeatures } from "./product-features.ts";
import type { MeasuredColours } from "../catalog/catalog-models.ts";
import { RowSlices } from "./row-slices.ts";
import { TermSignatures } from "./term-signatures.ts";
import { RunningKthLargest } from "../../lib/running-kth-largest.ts";
import { fnv1a } from "../../lib/hash-ids.ts";

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

/** Numbers that stand for strings (category paths, brands, genders, age groups, terms); 0 for none where said. */
class Codes {
  private readonly codes = new Map<string, number>();
  readonly names: string[] = [];

  constructor(none?: string) {
    if (none !== undefined) this.code(none);
  }

  code(name: string): number {
    let code = this.codes.get(name);
    if (code === undefined) {
      code = this.names.length;
      this.codes.set(name, code);
      this.names.push(name);
    }
    return code;
  }

  get size(): number {
    return this.names.length;
  }
}

/** Neither stated nor empty: code 0 (compatible() and the brand block treat both as unstated). */
const NONE = "";
/** A variant id list's separator: product identifiers hold no control characters (product-schema.ts). */
const VARIANT_SEPARATOR = "\n";

/*
 * A product is a row: its fixed-size features in one typed array each (row-addressed), its variable-length ones
 * (terms, colours, category path) in RowSlices, its id, product line and variant ids in arrays of strings, and
 * one Map from product id to row. Rows of removed products are reused.
 */
export class SimilarityIndex implements CatalogModel {
  private readonly rowOf = new Map<string, number>();
  private readonly ids: string[] = [];
  private readonly lines: string[] = [];
  /**
   * Its line's hash: every candidate is checked against the source's line, and reading each candidate's string
   * (one more scattered object) cost more than all of its score; the strings are compared only where hashes agree.
   */
  private lineHash = new Uint32Array(0);
  /** Its variations' ids (the first MAX_COLOURS, productFeatures), joined; "" without variations. */
  private readonly variantIds: string[] = [];
  private readonly freeRows: number[] = [];
  private gender = new Uint32Array(0);
  private ageGroup = new Uint32Array(0);
  private brand = new Uint32Array(0);
  /** log of the lowest price paid, NaN without prices. */
  private logPrice = new Float64Array(0);
  private inStock = new Uint8Array(0);
  /** The length of its TF-IDF weights, as of `weightsAt` (the idfs' generation). */
  private norm = new Float64Array(0);
  private weightsAt = new Float64Array(0);
  /** Per term: its id, its count, and its TF-IDF weight as of `weightsAt`. */
  private readonly terms = new RowSlices<[Uint32Array, Float32Array, Float32Array]>([
    new Uint32Array(0),
    new Float32Array(0),
    new Float32Array(0),
  ]);
  /**
   * Its known colours as [L, a, b, chroma] quadruples (colours.ts), read per candidate without objects: those of
   * variations with a size to buy, or all when none has.
   */
  private readonly colours = new RowSlices<[Float32Array]>([new Float32Array(0)]);
  /** Every variation's colour quadruple in variantIds' order (NaN where unknown): the asked variant's colour. */
  private readonly variantColours = new RowSlices<[Float32Array]>([new Float32Array(0)]);
  /** Its category path prefixes as codes, top first (comparing numbers, not strings, per candidate). */
  private readonly paths = new RowSlices<[Int32Array]>([new Int32Array(0)]);
  /** Which terms it may have, in 64 bits: the words' part bounded without reading its terms. */
  private readonly signatures = new TermSignatures();
  /** Rows by category path code: the candidate sets. */
  private readonly byPath: Set<number>[] = [];
  private readonly pathCodes = new Codes();
  private readonly brandCodes = new Codes(NONE);
  private readonly groupCodes = new Codes(NONE);
  private readonly unisex = this.groupCodes.code("Unisex");
  private readonly termCodes = new Codes();
  private docFrequency = new Float64Array(1024);
  /** Inverse document frequency per term as of `idfAt`; the generation moves on every put and remove. */
  private idfs = new Float64Array(0);
  private idfAt = -1;
  private generation = 0;
  /** Scratch: the source's weight per term id while one ranking runs. */
  private sourceWeights = new Float64Array(1024);

  get size(): number {
    return this.rowOf.size;
  }

  has(id: string): boolean {
    return this.rowOf.has(id);
  }

  /** `measured`: the product's image colours per variation (productFeatures), when image analysis ran. */
  put(product: Product, measured?: MeasuredColours): void {
    const features = productFeatures(product, measured);
    this.remove(features.id);
    const row = this.freeRows.pop() ?? this.ids.length;
    if (row >= this.gender.length) this.growRows(row + 1);
    this.rowOf.set(features.id, row);
    this.ids[row] = features.id;
    this.lines[row] = features.line;
    this.lineHash[row] = fnv1a(features.line);
    this.variantIds[row] = features.colours.map((c) => c.variationId ?? "").join(VARIANT_SEPARATOR);
    this.gender[row] = this.groupCodes.code(features.gender ?? NONE);
    this.ageGroup[row] = this.groupCodes.code(features.ageGroup ?? NONE);
    this.brand[row] = this.brandCodes.code(features.brand);
    this.logPrice[row] = features.logPrice ?? Number.NaN;
    this.inStock[row] = features.inStock ? 1 : 0;
    this.norm[row] = 0;
    this.weightsAt[row] = -1;

    const termsAt = this.terms.write(row, features.terms.size);
    let at = termsAt;
    const [termIds, termCounts] = this.terms.columns;
    for (const [term, count] of features.terms) {
      const id = this.termCodes.code(term);
      if (id >= this.docFrequency.length) {
        const grown = new Float64Array(id * 2);
        grown.set(this.docFrequency);
        this.docFrequency = grown;
      }
      this.docFrequency[id]!++;
      termIds[at] = id;
      termCounts[at++] = count;
    }
    this.signatures.write(row, termIds, termsAt, features.terms.size);

    at = this.paths.write(row, features.paths.length);
    const [pathCodes] = this.paths.columns;
    for (const path of features.paths) {
      const code = this.pathCodes.code(path);
      pathCodes[at++] = code;
      (this.byPath[code] ??= new Set()).add(row);
    }

    // A colour counts where a size of it can be bought: a shopper on the red variant is shown red ones to buy.
    const buyable = features.colours.filter((c) => c.available);
    const known = (buyable.length ? buyable : features.colours).flatMap((c) => (c.colour ? [colourPoint(c.colour)] : []));
    at = this.colours.write(row, known.length * 4);
    for (const point of known) this.colours.columns[0].set(point, (at += 4) - 4);
    at = this.variantColours.write(row, features.colours.length * 4);
    for (const c of features.colours) this.variantColours.columns[0].set(c.colour ? colourPoint(c.colour) : UNKNOWN_COLOUR, (at += 4) - 4);
    this.generation++;
  }

  remove(id: string): void {
    const row = this.rowOf.get(id);
    if (row === undefined) return;
    this.rowOf.delete(id);
    this.generation++;
    const [termIds] = this.terms.columns;
    for (let i = this.terms.start(row), end = i + this.terms.length(row); i < end; i++) this.docFrequency[termIds[i]!]!--;
    const [pathCodes] = this.paths.columns;
    for (let i = this.paths.start(row), end = i + this.paths.length(row); i < end; i++) this.byPath[pathCodes[i]!]!.delete(row);
    for (const slices of [this.terms, this.paths, this.colours, this.variantColours]) slices.release(row);
    this.ids[row] = this.lines[row] = this.variantIds[row] = "";
    this.freeRows.push(row);
  }

  /** Products similar to `sourceId`, best first, at most MAX_SIMILAR; null when the store has no such product. */
  similar(sourceId: string, variantId?: string): Similar[] | null {
    const source = this.rowOf.get(sourceId);
    if (source === undefined) return null;
    const sourceColours = this.askedColour(source, variantId) ?? this.coloursOf(source);
    this.refreshIdfs();
    const sourceNorm = this.weightsOf(source);
    const [termIds, , weights] = this.terms.columns;
    this.signatures.source(termIds, weights, this.terms.start(source), this.terms.length(source), sourceNorm);
    const [colours] = this.colours.columns;
    const [pathCodes] = this.paths.columns;
    const sourcePaths = this.pathSlice(source);
    try {
      // One formula per part, for ranking and for explaining.
      const category = (other: number) =>
        WEIGHTS.category *
        CATEGORY_BY_DEPTH_MATCHED[sharedDepth(sourcePaths, pathCodes, this.paths.start(other), this.paths.length(other))]!;
      const colour = (other: number) =>
        WEIGHTS.colour * colourScore(sourceColours, colours, this.colours.start(other), this.colours.length(other));
      const text = (other: number) => WEIGHTS.text * this.cosine(sourceNorm, other);
      const price = (other: number) => WEIGHTS.price * priceScore(this.logPrice[source]!, this.logPrice[other]!);
      const brand = (other: number) => (this.brand[source] && this.brand[source] === this.brand[other] ? WEIGHTS.brand : 0);
      // Ranked in stock first: a score is at most 1, so 2 + score puts every product in stock above every one
      // that is not. A candidate is passed over once an upper bound of its key is below the k-th best key so far
      // (the final k-th best can only be higher): first with the colour at its most and the words' cosine at the
      // bound of its signature, then with the colour computed, and only then are its words read. A bound is the
      // key's sum in the same order with parts raised, and rounding is monotone, so it is never below the key.
      const best = new RunningKthLargest(MAX_SIMILAR * 2);
      const parts: Contributions = { category: 0, text: 0, colour: 0, price: 0, brand: 0 };
      const rows: number[] = [];
      const keys: number[] = [];
      const line = this.lines[source];
      const lineHash = this.lineHash[source];
      for (const other of this.candidates(sourcePaths)) {
        // The source and its own variants sold as separate products (the same line in other colours) are not alternatives.
        if (other === source || !this.compatible(source, other) || (this.lineHash[other] === lineHash && this.lines[other] === line))
          continue;
        const stock = this.inStock[other] ? 2 : 0;
        parts.category = category(other);
        parts.price = price(other);
        parts.brand = brand(other);
        parts.colour = WEIGHTS.colour;
        parts.text = WEIGHTS.text * this.signatures.cosineBound(other);
        if (stock + total(parts) < best.value) continue;
        parts.colour = colour(other);
        if (stock + total(parts) < best.value) continue;
        parts.text = text(other);
        const key = stock + total(parts);
        if (key < best.value) continue;
        best.offer(key);
        rows.push(other);
        keys.push(key);
      }
      const threshold = best.value;
      const ranked: (Similar & { key: number; brand: string; line: string })[] = [];
      rows.forEach((other, i) => {
        if (keys[i]! < threshold) return;
        const contributions: Contributions = {
          category: category(other),
          text: text(other),
          colour: colour(other),
          price: price(other),
          brand: brand(other),
        };
        ranked.push({
          id: this.ids[other]!,
          score: total(contributions),
          contributions,
          key: keys[i]!,
          brand: this.brandCodes.names[this.brand[other]!]!,
          line: this.lines[other]!,
        });
      });
      ranked.sort((a, b) => b.key - a.key || (a.id < b.id ? -1 : 1));
      return diversified(ranked.slice(0, MAX_SIMILAR * 2))
        .slice(0, MAX_SIMILAR)
        .map(({ id, score, contributions }) => ({ id, score, contributions }));
    } finally {
      for (let i = this.terms.start(source), end = i + this.terms.length(source); i < end; i++) this.sourceWeights[termIds[i]!] = 0;
    }
  }

  /**
   * The asked variation's colour, when it has a known one. Without a variant asked, the source's own colours: a
   * product without variations has at most one colour, which is what asking for "no variant" would find.
   */
  private askedColour(row: number, variantId?: string): Float32Array | undefined {
    if (variantId === undefined || !this.variantIds[row]) return undefined;
    const index = this.variantIds[row]!.split(VARIANT_SEPARATOR).indexOf(variantId);
    if (index < 0) return undefined;
    const at = this.variantColours.start(row) + index * 4;
    const point = this.variantColours.columns[0].slice(at, at + 4);
    return Number.isNaN(point[0]) ? undefined : point;
  }

  private coloursOf(row: number): Float32Array {
    const at = this.colours.start(row);
    return this.colours.columns[0].slice(at, at + this.colours.length(row));
  }

  /** The source's category path codes, copied out of the column for the ranking. */
  private pathSlice(row: number): Int32Array {
    const at = this.paths.start(row);
    return this.paths.columns[0].slice(at, at + this.paths.length(row));
  }

  /** Gender compatible (unisex fits both; unstated fits all), the same age group where both state one. */
  private compatible(a: number, b: number): boolean {
    const ga = this.gender[a]!;
    const gb = this.gender[b]!;
    if (ga && gb && ga !== gb && ga !== this.unisex && gb !== this.unisex) return false;
    return !(this.ageGroup[a] && this.ageGroup[b] && this.ageGroup[a] !== this.ageGroup[b]);
  }

  private growRows(needed: number): void {
    const size = Math.max(needed, Math.ceil(this.gender.length * 1.5), 64);
    const grow = <T extends Uint32Array | Uint8Array | Float64Array>(column: T): T => {
      const bigger = new (column.constructor as new (length: number) => T)(size);
      bigger.set(column);
      return bigger;
    };
    this.lineHash = grow(this.lineHash);
    this.gender = grow(this.gender);
    this.ageGroup = grow(this.ageGroup);
    this.brand = grow(this.brand);
    this.logPrice = grow(this.logPrice);
    this.inStock = grow(this.inStock);
    this.norm = grow(this.norm);
    this.weightsAt = grow(this.weightsAt);
  }

  /** Every term's idf again when the catalog changed since they were computed (a few ms for 50k products). */
  private refreshIdfs(): void {
    if (this.idfAt === this.generation) return;
    if (this.idfs.length < this.termCodes.size) this.idfs = new Float64Array(this.docFrequency.length);
    const n = this.rowOf.size;
    for (let term = 0; term < this.termCodes.size; term++) this.idfs[term] = Math.log(1 + n / Math.max(1, this.docFrequency[term]!));
    this.idfAt = this.generation;
  }

  /**
   * The source's leaf category, widened level by level until there are enough, but never past its top level: a
   * ring's nearest products outside jewellery would be filler. A product without categories is compared with all.
   */
  private candidates(paths: Int32Array): Iterable<number> {
    for (let level = paths.length - 1; level >= 0; level--) {
      const set = this.byPath[paths[level]!];
      if (set && (set.size > ENOUGH_CANDIDATES || level === 0)) return set;
    }
    return this.rowOf.values();
  }

  /** Writes the source's TF-IDF weights into the scratch array; returns their norm. */
  private weightsOf(source: number): number {
    if (this.sourceWeights.length < this.termCodes.size) this.sourceWeights = new Float64Array(this.termCodes.size * 2);
    this.refreshWeights(source);
    const [termIds, , weights] = this.terms.columns;
    for (let i = this.terms.start(source), end = i + this.terms.length(source); i < end; i++) this.sourceWeights[termIds[i]!] = weights[i]!;
    return this.norm[source]!;
  }

  private refreshWeights(row: number): void {
    if (this.weightsAt[row] === this.idfAt) return;
    const [termIds, termCounts, weights] = this.terms.columns;
    let sum = 0;
    for (let i = this.terms.start(row), end = i + this.terms.length(row); i < end; i++) {
      const w = termCounts[i]! * this.idfs[termIds[i]!]!;
      weights[i] = w;
      sum += w * w;
    }
    this.norm[row] = Math.sqrt(sum);
    this.weightsAt[row] = this.idfAt;
  }

  private cosine(sourceNorm: number, other: number): number {
    this.refreshWeights(other);
    const [termIds, , weights] = this.terms.columns;
    let dot = 0;
    for (let i = this.terms.start(other), end = i + this.terms.length(other); i < end; i++)
      dot += weights[i]! * this.sourceWeights[termIds[i]!]!;
    const otherNorm = this.norm[other]!;
    return sourceNorm && otherNorm ? dot / (sourceNorm * otherNorm) : 0;
  }
}

const UNKNOWN_COLOUR = [Number.NaN, Number.NaN, Number.NaN, Number.NaN];

const total = (c: Contributions) => c.category + c.text + c.colour + c.price + c.brand;

/**
 * How much of the category path two products share: 3 the leaf, 2 the parent, 1 the top level only, 0 nothing.
 * `b` is the slice [at, at + length) of a column.
 */
function sharedDepth(a: Int32Array, b: Int32Array, at: number, length: number): number {
  let shared = 0;
  while (shared < a.length && shared < length && a[shared] === b[at + shared]) shared++;
  if (shared === 0) return 0;
  if (shared === a.length && shared === length) return 3;
  return shared >= a.length - 1 ? 2 : 1;
}

/**
 * The closest pair of a source colour and a candidate colour (the slice [at, at + length) of a column), scored 1
 * (the same) down to 0 (COLOUR_SPAN apart).
 */
function colourScore(source: Float32Array, candidates: Float32Array, at: number, length: number): number {
  let best = Infinity;
  for (let i = 0; i < source.length; i += 4) {
    for (let j = at; j < at + length; j += 4) {
      const d = pointDistance(source, i, candidates, j);
      if (d < best) best = d;
    }
  }
  return best === Infinity ? 0 : Math.max(0, 1 - best / COLOUR_SPAN);
}

/** NaN: no price known. */
function priceScore(a: number, b: number): number {
  return Number.isNaN(a) || Number.isNaN(b) ? 0 : Math.max(0, 1 - Math.abs(a - b) / PRICE_SPAN);
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
