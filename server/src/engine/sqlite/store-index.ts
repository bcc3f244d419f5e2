import { rangeBucketsOf } from "../range-buckets.ts";
import { stableHash } from "../stable-hash.ts";
import { FIELD_END, type IndexedText } from "./field-tokens.ts";
import { TypoVocabulary } from "../../text/typo-vocabulary.ts";
import {
  MAX_PREFER_FILTERS,
  MAX_WEIGHTED_FILTERS,
  type EngineFilter,
  type EngineSearchRequest,
  type EngineSearchResult,
  type EngineSort,
  type EngineDocument,
  type FacetCount,
  type RangeCount,
} from "../types.ts";
import { FacetRows } from "./facet-rows.ts";
import { FlatLists, grownTo } from "./flat-lists.ts";
import { HeldTexts, SlotsById } from "./held-texts.ts";
import { roomFor, SlotMemo } from "./slot-memo.ts";
import { TextIndex } from "./text-index.ts";
import { prefixHolding, topK, topKByKey, type Comparator } from "./top-slots.ts";
import { arrayBytes, mapBytes, stringsBytes, typedBytes } from "../../lib/heap-estimate.ts";

/*
 * One store's documents in memory, indexed by slot (the document's rowid in SQLite). A TextIndex finds which
 * documents match the text; everything after that reads these columns: the filters in one pass into flat lists
 * of matched and nearly matched slots, then disjunctive facet counts, range facets, and the first page. The
 * layout is what keeps a faceted, sorted search's cost per matched document within tens of nanoseconds:
 * - every (facet key, value) pair has one global id; a document holds one sorted array of its ids, so
 *   counting is `counts[id]++` and a filter is a byte-mask lookup;
 * - a document's tokens in the weighted fields are kept as `tokenId * 8 + field`, so relevance is a scan of
 *   a short integer array instead of a bm25 evaluation per matching row;
 * - nothing is sorted whole: the page's last key by the first sort part and the range facets' percentiles are
 *   found by selection (top-slots.ts), and a facet's values sort as numbers.
 */

/** What the index holds of a document besides its text's tokens. */
export type HeldDocument = Pick<EngineDocument, "id" | "facets" | "numbers" | "sortText"> & { identifiers: string[] };

/** Field weights for relevance, in the order the fields are stored: name > brand > categories > features, tags. */
const FIELD_WEIGHTS = [10, 6, 4, 2, 2];
/** A word found only in the description (not kept in memory) scores as this field weight. */
const DESCRIPTION_WEIGHT = 1;

class NumberColumn {
  values = new Float64Array(1024).fill(NaN);

  set(slot: number, value: number): void {
    if (slot >= this.values.length) {
      const grown = new Float64Array(Math.max(slot + 1, this.values.length * 2)).fill(NaN);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[slot] = value;
  }

  get(slot: number): number {
    return slot < this.values.length ? this.values[slot]! : NaN;
  }
}

/** How one query word may match: token ids with a quality (1 exact, less for a prefix or a typo). */
export interface ScoringWord {
  quality: Map<number, number>;
  /** Inverse document frequency of the word's best alternative: rare words weigh more. */
  idf: number;
}

export interface TextMatches {
  slots: ArrayLike<number>;
  words: ScoringWord[];
  /** Slots matched by an identifier, ranked above every text score. */
  identifierSlots: ReadonlySet<number>;
}

/**
 * One part of a search's order: how it compares two slots, and when it orders by a number per slot, that number
 * (ascending, NaN after every number), by which the first page is selected without comparing every match.
 */
interface SortPart {
  compare: Comparator;
  key?: Key;
  /** The smallest key any slot can have, when known (a page whose matches all have it needs no more). */
  least?: number;
}
type Key = (slot: number) => number;

/** What a search with one broad selection and no text counted (StoreIndex.keptSelection): null until counted. */
interface KeptSelection {
  counts: Int32Array | null;
  /** How many documents pass it, once asked (secondFilter). */
  passing?: number;
  /** Range buckets by field and most buckets; null: no match has the field. */
  ranges: Map<string, RangeCount[] | null>;
}

type RangeFacetRequest = EngineSearchRequest["rangeFacets"][number];
/** Where a selection keeps a range facet's buckets. */
const rangeKey = (r: RangeFacetRequest) => `${r.field}\u0000${r.maxBuckets}`;

/** The candidates that fail only the filters of one group, each with that group. */
interface Nearly {
  slots: Int32Array;
  groups: Int32Array;
}

/** A pass over broad selections lists no nearly matched documents (maskPass). */
const NO_NEARLY: Nearly = { slots: new Int32Array(0), groups: new Int32Array(0) };

interface CompiledFilter {
  /** The facet key index (terms) or -1 - field index (ranges) whose counts ignore this filter. */
  group: number;
  test(slot: number): boolean;
  /** A broad terms filter's byte per slot (termsTest): the slot passes when its byte is `passing`. */
  mask?: { bySlot: Uint8Array; passing: number };
  /** The test reads the slot's facet row (a terms filter without a mask). */
  readsRow?: true;
}

const IDENTIFIER_SCORE = 1e9;

/** The group of an ids filter: no facet key's index, no range field's group. */
const IDS_GROUP = -1_000_001;
/** The group of an excludeIds filter: a document it excludes counts for no facet value. */
const EXCLUDED_GROUP = -1_000_002;

/** Candidates few enough that their facet values are listed from their documents (countedValues). */
const FEW_CANDIDATES = 64;

/** A search tests a filter on more than this share of the store: worth a byte per slot (compileFilter). */
const BROAD = 1 / 8;
/** Byte-per-slot filters kept at most: 64 KB each at 58k products. */
const FILTER_MASKS = 64;

/** A document's tokens as a StoreIndex holds them, and as the embedded engine stores them beside the document. */
export interface DocumentTokens {
  /** Token ids field by field, FIELD_END after each (TextIndex.sequenceOf). */
  sequence: Uint32Array;
  /**
   * How the document wrote those of its distinct tokens whose written form differs from the token ("jeans" for
   * "jean"): space-separated pairs of the token's rank among the distinct tokens (by first appearance) and the form.
   */
  surfaces: string;
}

export class StoreIndex {
  private readonly ids: (string | undefined)[] = [];
  /** Each live document's slot by id: an ids filter's candidates without a pass over the store. */
  private readonly slotOf = new SlotsById(this.ids);
  /** What a slot keeps of its document's text beyond its tokens: its identifiers and its sortable text. */
  private readonly held = new HeldTexts(this.ids);
  // Facets: keys, global value ids, and each slot's sorted value ids.
  private readonly keyIndex = new Map<string, number>();
  private readonly keys: string[] = [];
  /** Per facet key index: value -> global value id. */
  private readonly valueIds: Map<string, number>[] = [];
  private readonly valueNames: string[] = [];
  private readonly valueKey: number[] = [];
  /**
   * 16-bit while a store has at most 65,536 values (widened before a value numbered past that): counting a broad
   * query's facets reads every matched slot's values, scattered over the store, and what that costs is the bytes read.
   */
  private readonly slotValues = new FacetRows();
  // Numbers and sortable text.
  private readonly numbers = new Map<string, NumberColumn>();
  private readonly numberFields: string[] = [];
  private readonly textRanks = new Map<string, Int32Array>();
  /** Terms filters of broad searches, as one byte per slot, until the index changes (at most FILTER_MASKS). */
  private readonly filterMasks = new Map<string, Uint8Array>();
  /** What a kept filter mask counts as a search's only filter, by its passing byte (keptSelection). */
  private readonly selections = new Map<Uint8Array, KeptSelection[]>();
  // Text: tokens, and each slot's weighted-field tokens.
  readonly text = new TextIndex();
  private readonly slotTokens = new FlatLists();
  private liveCache: number[] | null = null;
  /**
   * Scores by slot for the evaluation running (it is synchronous): a sort by price writes only the few scores it
   * compares instead of one per match, scattered over the store.
   */
  private readonly scores = new SlotMemo();
  /** Each preference's (weighted sort's) sum by slot, by its place among the evaluation's sorts. */
  private readonly sums: SlotMemo[] = [];
  /** An evaluation's matched and nearly matched slots (filterPass) and its first sort's keys. */
  private scratchMatched = new Int32Array(0);
  private scratchNearly = new Int32Array(0);
  private scratchGroups = new Int32Array(0);
  private scratchKeys = new Float64Array(0);
  /** A range facet's values, then the room the first page's selection works in. */
  private scratchNumbers = new Float64Array(0);
  /** storeCounts, until the index changes. */
  private totals: Int32Array | null = null;
  /** Value ids ranked by name (nameRanks), until a new value is numbered. */
  private ranked: { rank: Int32Array; byRank: Int32Array } | null = null;
  /** A document's facet value ids, then its weighted tokens, as put() gathers them (copied by FlatLists.set). */
  private scratch: Uint32Array = new Uint32Array(256);
  /** Per query word position, its qualities by token id (qualityArrays). */
  private readonly wordQualities: Float64Array[] = [];
  private live = 0;
  readonly vocabulary = new TypoVocabulary(this.text.words);

  get size(): number {
    return this.live;
  }

  /** A document's tokens as this index numbers them: new tokens get their ids now. */
  tokensOf({ distinct, sequence, surfaces }: IndexedText): DocumentTokens {
    const ids = distinct.map((token) => this.text.intern(token));
    const numbered = new Uint32Array(sequence.length);
    for (let i = 0; i < sequence.length; i++) numbered[i] = sequence[i] === FIELD_END ? FIELD_END : ids[sequence[i]!]!;
    return { sequence: numbered, surfaces };
  }

  /**
   * Facets and numbers go into the columns; of the document itself only copies of its identifiers and sortable
   * text are kept, so a caller that reuses its objects cannot change what a later delete takes out.
   */
  put(slot: number, doc: HeldDocument, tokens: DocumentTokens): void {
    // A replaced document's tokens are not taken out here: the TextIndex swaps only those that changed.
    if (this.ids[slot] !== undefined) this.release(slot);
    else this.live++;
    this.ids[slot] = doc.id;
    this.slotOf.set(doc.id, slot);
    this.held.set(slot, doc.identifiers, doc.sortText);
    let values = 0;
    for (const key in doc.facets) {
      const k = this.keyNumber(key);
      for (const value of doc.facets[key]!) this.scratch = put(this.scratch, values++, this.valueId(k, value));
    }
    this.slotValues.set(slot, sortedUnique(this.scratch, values));
    for (const field in doc.numbers) this.numberColumn(field).set(slot, doc.numbers[field]!);
    const { sequence } = tokens;
    this.text.putSequence(slot, sequence);
    let weighted = 0;
    for (let i = 0, field = 0; i < sequence.length && field < FIELD_WEIGHTS.length; i++) {
      if (sequence[i] === FIELD_END) field++;
      else this.scratch = put(this.scratch, weighted++, sequence[i]! * 8 + field);
    }
    this.slotTokens.set(slot, sortedUnique(this.scratch, weighted));
    this.countWords(tokens);
    this.changed();
  }

  /** Counts a document's distinct tokens in the typo vocabulary, each with how it was written there. */
  private countWords({ sequence, surfaces }: DocumentTokens): void {
    // "rank form" pairs, ranks counting distinct tokens in order of first appearance (IndexedText.surfaces).
    let written: string[] | null = null;
    if (surfaces) {
      written = [];
      const parts = surfaces.split(" ");
      for (let k = 0; k < parts.length; k += 2) written[Number(parts[k])] = parts[k + 1]!;
    }
    let rank = 0;
    this.text.forEachDistinct(sequence, (id) => {
      this.vocabulary.countId(id, written?.[rank] ?? this.text.name(id), 1);
      rank++;
    });
  }

  delete(slot: number): void {
    if (this.ids[slot] === undefined) return;
    this.release(slot);
    this.text.delete(slot);
    this.slotOf.delete(this.ids[slot]!);
    this.ids[slot] = undefined;
    this.live--;
    this.changed();
  }

  /** Takes a slot's document out of everything but its tokens' posting lists. */
  private release(slot: number): void {
    this.slotValues.clear(slot);
    this.slotTokens.clear(slot);
    for (const column of this.numbers.values()) column.set(slot, NaN);
    this.held.clear(slot);
    for (const token of this.text.tokensOf(slot)) this.vocabulary.countWord(token, token, -1);
  }

  setNumber(slot: number, field: string, value: number | null): void {
    if (this.ids[slot] === undefined) return;
    this.numberColumn(field).set(slot, value ?? NaN);
    // Kept range buckets read the numbers (the masks and counts read none).
    this.selections.clear();
  }

  private changed(): void {
    this.textRanks.clear();
    this.filterMasks.clear();
    this.selections.clear();
    this.totals = null;
    this.liveCache = null;
  }

  /** A facet key's number, numbering it when new. */
  private keyNumber(key: string): number {
    let k = this.keyIndex.get(key);
    if (k === undefined) {
      k = this.keys.length;
      this.keys.push(key);
      this.keyIndex.set(key, k);
      this.valueIds.push(new Map());
    }
    return k;
  }

  /** The global id of a value of facet key number `k`, numbering it when new. */
  private valueId(k: number, value: string): number {
    const ids = this.valueIds[k]!;
    let id = ids.get(value);
    if (id === undefined) {
      id = this.valueNames.length;
      if (id > 0xffff) this.slotValues.widen();
      this.valueNames.push(value);
      this.valueKey.push(k);
      ids.set(value, id);
    }
    return id;
  }

  private numberColumn(field: string): NumberColumn {
    let column = this.numbers.get(field);
    if (!column) {
      this.numbers.set(field, (column = new NumberColumn()));
      this.numberFields.push(field);
    }
    return column;
  }

  /** Slots whose id or relatedIds equal the whole query (case-insensitive). */
  identifierMatches(query: string): number[] {
    return this.held.slotsOf(query.trim().toLowerCase());
  }

  /**
   * How a query word scores: its exact token, prefix completions (for the last word while typing) and typo
   * corrections, each with a quality; idf from the exact token or the best-known alternative.
   */
  scoringWord(alternatives: { token: string; quality: number; prefix?: boolean }[]): ScoringWord {
    const quality = new Map<number, number>();
    let docs = 0;
    const consider = (id: number | undefined, q: number) => {
      if (id === undefined) return;
      if ((quality.get(id) ?? 0) < q) quality.set(id, q);
      docs = Math.max(docs, this.vocabulary.docs(this.text.name(id)));
    };
    for (const a of alternatives) {
      const exact = this.text.id(a.token);
      if (a.prefix) for (const id of this.text.tokensStartingWith(a.token)) consider(id, id === exact ? 1 : a.quality);
      else consider(exact, a.quality);
    }
    return { quality, idf: Math.log(1 + this.live / Math.max(1, docs)) };
  }

  /**
   * A slot's relevance: per query word, its best field weight times the match quality among the slot's weighted
   * tokens. A word of few tokens finds each in the slot's sorted tokens (`token * 8 + field`: the token's first
   * entry has its best field) by bisection; a word of many (a prefix's completions) scans them once.
   */
  private relevance(slot: number, words: ScoringWord[], qualities: Float64Array[], lookups: (WordTokens | null)[]): number {
    const { data, start, length } = this.slotTokens;
    const from = start[slot]!;
    const to = from + (length[slot] ?? 0);
    let score = 0;
    for (let w = 0; w < words.length; w++) {
      const few = lookups[w];
      let best = 0;
      if (few) {
        for (let j = 0; j < few.keys.length; j++) {
          const key = few.keys[j]!;
          let lo = from;
          let hi = to;
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (data[mid]! < key) lo = mid + 1;
            else hi = mid;
          }
          if (lo < to && data[lo]! < key + 8) {
            const s = FIELD_WEIGHTS[data[lo]! & 7]! * few.quality[j]!;
            if (s > best) best = s;
          }
        }
      } else {
        const quality = qualities[w]!;
        for (let i = from; i < to; i++) {
          const q = quality[data[i]! >>> 3]!;
          if (q > 0) {
            const s = FIELD_WEIGHTS[data[i]! & 7]! * q;
            if (s > best) best = s;
          }
        }
      }
      // The TextIndex matched it, so the word is somewhere: in the description, or only through its compound parts.
      score += words[w]!.idf * (best || DESCRIPTION_WEIGHT * 0.5);
    }
    return score;
  }

  private liveSlots(): number[] {
    if (!this.liveCache) {
      const out: number[] = [];
      for (let slot = 0; slot < this.ids.length; slot++) if (this.ids[slot] !== undefined) out.push(slot);
      this.liveCache = out;
    }
    return this.liveCache;
  }

  /**
   * `broad`: the filter is about to be tested on a large share of the store. A terms filter then answers from a
   * byte per slot, computed once until the index changes: testing a document's own values reads one small array
   * per document, scattered in memory, and for "women" (gender filter and an age-group preference on 29k of 58k
   * products) those reads were 15 of the search's 20 ms.
   */
  private compileFilter(filter: EngineFilter, broad = false): CompiledFilter {
    if (filter.kind === "terms" || filter.kind === "excludeTerms") {
      const { has, bySlot } = this.termsTest(filter.key, filter.values, broad);
      // An exclusion belongs to its key as a selection does: the key's counts ignore both.
      const group = this.keyIndex.get(filter.key) ?? -1_000_000;
      const selects = filter.kind === "terms";
      return {
        group,
        test: selects ? has : (slot) => !has(slot),
        ...(bySlot ? { mask: { bySlot, passing: selects ? 1 : 0 } } : { readsRow: true }),
      };
    }
    if (filter.kind === "ids") {
      const ids = new Set(filter.ids);
      return { group: IDS_GROUP, test: (slot) => ids.has(this.ids[slot]!) };
    }
    if (filter.kind === "excludeIds") {
      // Tested on every candidate of a broad query: a set of slots, not of ids read per candidate.
      const slots = new Set<number>();
      for (const id of filter.ids) {
        const slot = this.slotOf.get(id);
        if (slot !== undefined) slots.add(slot);
      }
      return { group: EXCLUDED_GROUP, test: (slot) => !slots.has(slot) };
    }
    const column = this.numbers.get(filter.field);
    const min = filter.min ?? -Infinity;
    const max = filter.max ?? Infinity;
    return {
      group: this.rangeGroup(filter.field),
      test: (slot) => {
        const v = column ? column.get(slot) : NaN;
        return v >= min && v < max;
      },
    };
  }

  /** Does a document hold any of these values of the key (see compileFilter for `broad`). */
  private termsTest(key: string, values: readonly string[], broad: boolean): { has: (slot: number) => boolean; bySlot?: Uint8Array } {
    const k = this.keyIndex.get(key);
    const cacheKey = `${key}\u0000${[...values].sort().join("\u0000")}`;
    const kept = this.filterMasks.get(cacheKey);
    if (kept) return { has: (slot) => kept[slot] === 1, bySlot: kept };
    const mask = new Uint8Array(this.valueNames.length);
    for (const v of values) {
      const id = k === undefined ? undefined : this.valueIds[k]!.get(v);
      if (id !== undefined) mask[id] = 1;
    }
    const slotValues = this.slotValues;
    const scan = (slot: number) => slotValues.holdsAny(slot, mask);
    if (!broad) return { has: scan };
    const bySlot = new Uint8Array(this.ids.length);
    for (const slot of this.liveSlots()) if (scan(slot)) bySlot[slot] = 1;
    if (this.filterMasks.size >= FILTER_MASKS) {
      const [oldest, mask] = this.filterMasks.entries().next().value!;
      this.filterMasks.delete(oldest);
      this.selections.delete(mask);
    }
    this.filterMasks.set(cacheKey, bySlot);
    return { has: (slot) => bySlot[slot] === 1, bySlot };
  }

  /** Groups of range filters are negative, so they never equal a facet key index; an unknown field gets its own. */
  private rangeGroup(field: string): number {
    const i = this.numberFields.indexOf(field);
    return i < 0 ? -1 : -2 - i;
  }

  private requestedKeys(requested: string[]): Uint8Array {
    const wanted = new Uint8Array(this.keys.length);
    for (const key of requested) {
      if (key.endsWith("*")) {
        const prefix = key.slice(0, -1);
        this.keys.forEach((known, k) => known.startsWith(prefix) && (wanted[k] = 1));
      } else {
        const k = this.keyIndex.get(key);
        if (k !== undefined) wanted[k] = 1;
      }
    }
    return wanted;
  }

  /**
   * Without text, an ids filter's documents are the only candidates: a document outside it fails that filter,
   * and the counts of the facets it would still count for (those of the failed filter's group) are none.
   */
  private idsCandidates(filters: readonly EngineFilter[]): number[] | null {
    const only = filters.find((f) => f.kind === "ids");
    if (!only) return null;
    const slots = new Set<number>();
    for (const id of only.ids) {
      const slot = this.slotOf.get(id);
      if (slot !== undefined) slots.add(slot);
    }
    return [...slots];
  }

  /**
   * When the candidates are a handful (a merchandising rule's pins), their values ascending: all a facet count can
   * have touched, so that counting three documents does not read the count of every value the store has. Null
   * when they are more: every value is read.
   */
  private valuesOfFew(candidates: ArrayLike<number>): number[] | null {
    if (candidates.length > FEW_CANDIDATES) return null;
    const ids = new Set<number>();
    for (let c = 0; c < candidates.length; c++) for (const id of this.slotValues.of(candidates[c]!)) ids.add(id);
    return [...ids].sort((a, b) => a - b);
  }

  /** Filters, scores, counts and sorts the candidates: text matches, or every document when `text` is null. */
  evaluate(request: EngineSearchRequest, text: TextMatches | null): EngineSearchResult {
    const filters = request.filters.map((f) => this.compileFilter(f, (text ? text.slots.length : this.live) > this.live * BROAD));
    const candidates = text ? text.slots : (this.idsCandidates(request.filters) ?? this.liveSlots());
    // Broad selections of one key and no text ("women" read as a gender, "men women"): that key's counts are the store's.
    const group = filters[0]?.group ?? -1;
    const masks =
      !text && candidates === this.liveCache && filters.length > 0 && filters.every((f) => f.mask && f.group === group)
        ? filters.map((f) => f.mask!)
        : null;
    const second = masks || text || candidates !== this.liveCache ? null : this.secondFilter(filters);
    // A selection and a second filter: what fails only the second counts as the selection's kept counts say.
    const first = second && this.keptOf(second.selection);
    const { matched, nearly } = masks
      ? this.maskPass(masks)
      : second
        ? this.secondPass(second.selection, filters)
        : this.filterPass(candidates, filters);
    // One broad selection and no text: what it counts is kept for the next search of it ("men", "women").
    const kept = masks?.length === 1 ? this.keptSelection(masks[0]!) : null;
    const counts = () =>
      kept
        ? (kept.counts ??= this.selectionCounts(matched, group))
        : masks
          ? this.selectionCounts(matched, group)
          : this.matchCounts(matched, nearly, first && { counts: first.counts!, group: second!.group });
    const facets =
      request.facets.length > 0
        ? this.facetLists(counts(), this.valuesOfFew(candidates), this.requestedKeys(request.facets), candidates.length)
        : {};
    const rangeResult: EngineSearchResult["ranges"] = {};
    for (const r of request.rangeFacets) {
      const buckets = this.rangeBuckets(r, kept, matched, nearly);
      if (buckets) rangeResult[r.field] = buckets.map((b) => ({ ...b }));
    }

    const qualities = text ? this.qualityArrays(text.words) : [];
    const lookups = text ? text.words.map(wordTokens) : [];
    try {
      const { values: scores, stamps: scoredIn, round } = this.scores.begin(this.ids.length);
      // Scored on first use: when relevance only breaks ties (sorting by price), most documents never need it.
      const score = (slot: number) => {
        if (!text) return 0;
        if (scoredIn[slot] === round) return scores[slot]!;
        const s = text.identifierSlots.has(slot) ? IDENTIFIER_SCORE : this.relevance(slot, text.words, qualities, lookups);
        scores[slot] = s;
        scoredIn[slot] = round;
        return s;
      };
      const best = text && text.identifierSlots.size === 0 ? bestScore(text.words) : NaN;
      const page = this.firstOf(request.sort, matched, score, text === null, request.offset + request.limit, best).slice(request.offset);
      return {
        total: matched.length,
        hits: page.map((slot) => ({ id: this.ids[slot]!, score: score(slot) })),
        facets,
        ranges: rangeResult,
      };
    } finally {
      text?.words.forEach((w, i) => w.quality.forEach((_, id) => (qualities[i]![id] = 0)));
    }
  }

  /** A range facet's buckets over the matched and nearly matched slots, or those `kept` for a selection (kept then). */
  private rangeBuckets(r: RangeFacetRequest, kept: KeptSelection | null, matched: Int32Array, nearly: Nearly): RangeCount[] | null {
    let buckets = kept?.ranges.get(rangeKey(r));
    if (buckets === undefined) {
      const n = this.rangeValues(r.field, matched, nearly);
      buckets = n ? rangeBucketsOf(this.scratchNumbers, n, r.maxBuckets) : null;
      kept?.ranges.set(rangeKey(r), buckets);
    }
    return buckets;
  }

  /**
   * Without text, broad selections of two groups one of which is a single selection ("women" read as a gender, and
   * a designer selected): the documents that fail only the other group's filters are those that
   * pass the selection, so that group's facet counts are the selection's kept ones, and the
   * filter pass need not list them (secondPass; at a million products, "women" and a designer listed 480,000 and
   * read each one's row). Of two such selections, the one more documents pass: those that fail it are still listed.
   */
  private secondFilter(filters: CompiledFilter[]): { selection: CompiledFilter; group: number } | null {
    const groups = [...new Set(filters.map((f) => f.group))];
    if (groups.length !== 2) return null;
    // The second group's filters read bytes too: a range tested on every slot of a million cost more than it spared.
    if (!filters.every((f) => f.mask)) return null;
    const alone = filters.filter((f) => f.group >= 0 && filters.every((g) => g === f || g.group !== f.group));
    const selection = alone.reduce<CompiledFilter | null>((a, f) => (a && this.passing(a) >= this.passing(f) ? a : f), null);
    return selection && { selection, group: groups.find((g) => g !== selection.group)! };
  }

  /** How many live documents pass a selection's byte per slot (a slot's byte is 1 only when it was live). */
  private passing({ mask }: CompiledFilter): number {
    const kept = this.keptSelection(mask!);
    if (kept.passing === undefined) {
      let ones = 0;
      for (const byte of mask!.bySlot) ones += byte;
      kept.passing = mask!.passing === 1 ? ones : this.live - ones;
    }
    return kept.passing;
  }

  /** A selection's kept counts, counted now when not kept yet. */
  private keptOf(selection: CompiledFilter): KeptSelection {
    const kept = this.keptSelection(selection.mask!);
    kept.counts ??= this.selectionCounts(this.maskPass([selection.mask!]).matched, selection.group);
    return kept;
  }

  /**
   * The candidates (live documents: text matches, identifier matches, ids or every live slot) that pass every
   * filter (`matched`), and those that fail only the filters of one group (`nearly`, with that group: they still
   * count for the group's facet values). Both lists are views of arrays kept between searches (evaluation is
   * synchronous).
   */
  private filterPass(candidates: ArrayLike<number>, filters: CompiledFilter[]): { matched: Int32Array; nearly: Nearly } {
    this.slotsRoom(candidates.length);
    const { scratchMatched: matched, scratchNearly: nearly, scratchGroups: groups } = this;
    // A broad filter's byte is read here rather than through a call of its test per candidate.
    const masks = filters.map((f) => f.mask?.bySlot ?? null);
    const passing = filters.map((f) => f.mask?.passing ?? 0);
    // Candidates spread over a large store miss the cache on each row read: read 16 rows' first cells together first.
    const rows = filters.some((f) => f.readsRow) ? this.slotValues : null;
    let m = 0;
    let p = 0;
    for (let i = 0; i < candidates.length; i++) {
      if (rows && (i & 15) === 0) rows.touch(candidates, i);
      const slot = candidates[i]!;
      let failures = 0;
      let failedGroup = 0;
      for (let f = 0; f < filters.length; f++) {
        const mask = masks[f];
        const passed = mask ? (mask[slot] === 1) === (passing[f] === 1) : filters[f]!.test(slot);
        // Failures are counted by group: a document failing a key's selection and its exclusion fails that key only.
        if (!passed && (failures === 0 || filters[f]!.group !== failedGroup)) {
          failures++;
          failedGroup = filters[f]!.group;
          if (failures > 1) break;
        }
      }
      if (failures === 0) {
        matched[m++] = slot;
      } else if (failures === 1) {
        nearly[p] = slot;
        groups[p++] = failedGroup;
      }
    }
    return { matched: matched.subarray(0, m), nearly: { slots: nearly.subarray(0, p), groups: groups.subarray(0, p) } };
  }

  /**
   * filterPass over every live slot for a selection and a second group's filters (secondFilter), listing as nearly
   * matched only those that fail the selection alone. The second group is tested first: most slots fail it and
   * need nothing more (a designer's byte), where the general pass took 29 ms over a million slots.
   */
  private secondPass(selection: CompiledFilter, filters: CompiledFilter[]): { matched: Int32Array; nearly: Nearly } {
    this.slotsRoom(this.live);
    const { ids, scratchMatched: matched, scratchNearly: nearly, scratchGroups: groups } = this;
    const { bySlot, passing } = selection.mask!;
    const others = filters.filter((f) => f !== selection).map((f) => f.mask!);
    const passes = (slot: number) => {
      for (let f = 0; f < others.length; f++) if ((others[f]!.bySlot[slot] === 1) !== (others[f]!.passing === 1)) return false;
      return true;
    };
    let m = 0;
    let p = 0;
    for (let slot = 0; slot < ids.length; slot++) {
      if (!passes(slot) || ids[slot] === undefined) continue;
      if (bySlot[slot] === passing) matched[m++] = slot;
      else {
        nearly[p] = slot;
        groups[p++] = selection.group;
      }
    }
    return { matched: matched.subarray(0, m), nearly: { slots: nearly.subarray(0, p), groups: groups.subarray(0, p) } };
  }

  /**
   * Disjunctive counts: every value of a matched document, and a nearly matched document's values of the key whose
   * filter it fails; the values of key `given.group`, when given, as `given.counts` has them (a selection's kept
   * counts, secondFilter; the store's own, selectionCounts).
   */
  private matchCounts(matched: Int32Array, nearly: Nearly, given?: { counts: Int32Array; group: number } | null): Int32Array {
    const counts = new Int32Array(this.valueNames.length);
    this.slotValues.countInto(matched, counts);
    // A range's or an ids filter's group is no key's (negative): the document counts for no value.
    this.slotValues.countOfKeys(nearly.slots, nearly.groups, this.valueKey, counts);
    if (given && given.group >= 0) for (const id of this.valueIds[given.group]!.values()) counts[id] = given.counts[id]!;
    return counts;
  }

  /**
   * The facet counts and range buckets kept for a search whose only filter is a broad selection and which has no
   * text, until the index changes: counting "men" at a million products read 557,000 rows (20 ms) and its price
   * buckets took 10 ms, and a shop's broad selections are few and asked again and again.
   */
  private keptSelection({ bySlot, passing }: { bySlot: Uint8Array; passing: number }): KeptSelection {
    const byPassing = this.selections.get(bySlot) ?? [];
    this.selections.set(bySlot, byPassing);
    return (byPassing[passing] ??= { counts: null, ranges: new Map() });
  }

  /** The counts of broad selections' matches (maskPass's `matched`), their key's (`group`) the whole store's. */
  private selectionCounts(matched: Int32Array, group: number): Int32Array {
    return this.matchCounts(matched, NO_NEARLY, group >= 0 ? { counts: this.storeCounts(), group } : null);
  }

  /**
   * The live slots that pass broad selections of one key, read from their bytes per slot, as filterPass would list
   * them when they are a search's only filters and there is no text. The documents that fail them are not listed:
   * their counts for the selections' key are the store's (storeCounts), and they count for nothing else.
   */
  private maskPass(masks: { bySlot: Uint8Array; passing: number }[]): { matched: Int32Array; nearly: Nearly } {
    this.slotsRoom(this.live);
    const { ids, scratchMatched: matched } = this;
    const { bySlot, passing } = masks[0]!;
    let m = 0;
    for (let slot = 0; slot < ids.length; slot++) if (bySlot[slot] === passing && ids[slot] !== undefined) matched[m++] = slot;
    for (let f = 1; f < masks.length; f++) {
      const { bySlot: next, passing: passes } = masks[f]!;
      let kept = 0;
      for (let i = 0; i < m; i++) if (next[matched[i]!] === passes) matched[kept++] = matched[i]!;
      m = kept;
    }
    return { matched: matched.subarray(0, m), nearly: NO_NEARLY };
  }

  /** Room for n slots in each of the scratch lists of matched and nearly matched slots. */
  private slotsRoom(n: number): void {
    if (this.scratchMatched.length >= n) return;
    this.scratchMatched = new Int32Array(roomFor(n));
    this.scratchNearly = new Int32Array(roomFor(n));
    this.scratchGroups = new Int32Array(roomFor(n));
  }

  /** How many live documents hold each value, until the index changes. */
  private storeCounts(): Int32Array {
    if (!this.totals) {
      this.totals = new Int32Array(this.valueNames.length);
      this.slotValues.countInto(Int32Array.from(this.liveSlots()), this.totals);
    }
    return this.totals;
  }

  /**
   * A range facet's values (of `field`) of the matched documents and of those failing only a filter on the same
   * field, into scratchNumbers; how many.
   */
  private rangeValues(field: string, matched: Int32Array, nearly: Nearly): number {
    const column = this.numbers.get(field)?.values;
    if (!column) return 0;
    const values = this.numbersRoom(matched.length + nearly.slots.length);
    const group = this.rangeGroup(field);
    let n = 0;
    for (let j = 0; j < matched.length; j++) {
      const v = matched[j]! < column.length ? column[matched[j]!]! : NaN;
      if (!Number.isNaN(v)) values[n++] = v;
    }
    for (let j = 0; j < nearly.slots.length; j++) {
      if (nearly.groups[j] !== group) continue;
      const v = nearly.slots[j]! < column.length ? column[nearly.slots[j]!]! : NaN;
      if (!Number.isNaN(v)) values[n++] = v;
    }
    return n;
  }

  /** The first k matched slots in the order of `sorts`; `best`: the highest score a match can have (NaN: not known). */
  private firstOf(
    sorts: EngineSort[],
    matched: Int32Array,
    score: (slot: number) => number,
    unscored: boolean,
    k: number,
    best: number,
  ): number[] {
    const { compare, key, least } = this.comparator(sorts, score, matched, best);
    if (!key) return topK(Array.from(matched), compare, k);
    // Relevance decides nothing when every score is 0: equal keys are then in slot order.
    const slotTies = sorts.slice(1).every((s) => s.kind === "relevance" && unscored);
    // A key then relevance (a preference, a price): the matches that tie on the key are chosen by score, then slot.
    const tieKey = !unscored && sorts.length === 2 && sorts[1]!.kind === "relevance" ? (slot: number) => -score(slot) : undefined;
    // Matches in slot order need keys (and scores) only until k of them are first in any order: the least key there
    // is, then slot ("men": a preference, no text; relevance alone), or the least key and the best score, then slot.
    const known = least !== undefined && !Number.isNaN(least);
    const first = !known
      ? null
      : slotTies
        ? (slot: number) => key(slot) === least
        : tieKey && !Number.isNaN(best)
          ? (slot: number) => key(slot) === least && score(slot) === best
          : null;
    const n = first ? prefixHolding(matched, k, first) : matched.length;
    if (this.scratchKeys.length < n) this.scratchKeys = new Float64Array(roomFor(n));
    const keys = this.scratchKeys;
    for (let i = 0; i < n; i++) keys[i] = key(matched[i]!);
    return topKByKey(matched, n, keys, compare, k, this.numbersRoom(n), slotTies, tieKey);
  }

  /** scratchNumbers with room for n. */
  private numbersRoom(n: number): Float64Array {
    if (this.scratchNumbers.length < n) this.scratchNumbers = new Float64Array(roomFor(n));
    return this.scratchNumbers;
  }

  /**
   * The counted values of the wanted keys, keys in the order of their first value id, each key's most counted
   * values first and equal counts by value. Each value sorts as one number, (most - count) * values + its rank by
   * name: comparing names for the thousands of designers a broad query counts was a fifth of its time.
   * `most` is above every count (no value is counted more often than there are candidates).
   */
  private facetLists(counts: Int32Array, listed: number[] | null, wanted: Uint8Array, most: number): Record<string, FacetCount[]> {
    const { valueKey, valueNames } = this;
    const { rank, byRank } = this.nameRanks();
    const values = valueNames.length;
    const perKey = new Int32Array(this.keys.length + 1);
    const order: number[] = [];
    for (let i = 0, n = listed ? listed.length : counts.length; i < n; i++) {
      const id = listed ? listed[i]! : i;
      if (counts[id] === 0 || !wanted[valueKey[id]!]) continue;
      const k = valueKey[id]!;
      if (perKey[k + 1] === 0) order.push(k);
      perKey[k + 1] = perKey[k + 1]! + 1;
    }
    for (let k = 0; k < this.keys.length; k++) perKey[k + 1] = perKey[k + 1]! + perKey[k]!;
    const packed = new Float64Array(perKey[this.keys.length]!);
    const at = perKey.slice(0, this.keys.length);
    for (let i = 0, n = listed ? listed.length : counts.length; i < n; i++) {
      const id = listed ? listed[i]! : i;
      if (counts[id] === 0 || !wanted[valueKey[id]!]) continue;
      packed[at[valueKey[id]!]!++] = (most + 1 - counts[id]!) * values + rank[id]!;
    }
    const facets: Record<string, FacetCount[]> = {};
    for (const k of order) {
      const sorted = packed.subarray(perKey[k]!, perKey[k + 1]!).sort();
      const list: FacetCount[] = new Array(sorted.length);
      for (let i = 0; i < sorted.length; i++) {
        const p = sorted[i]!;
        list[i] = { value: valueNames[byRank[p % values]!]!, count: most + 1 - Math.floor(p / values) };
      }
      facets[this.keys[k]!] = list;
    }
    return facets;
  }

  /** Every value id's rank among all values by name (as `<` compares strings), and the ids in that order. */
  private nameRanks(): { rank: Int32Array; byRank: Int32Array } {
    const names = this.valueNames;
    if (this.ranked?.rank.length !== names.length) {
      const byRank = Int32Array.from(names.keys()).sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
      const rank = new Int32Array(names.length);
      for (let r = 0; r < byRank.length; r++) rank[byRank[r]!] = r;
      this.ranked = { rank, byRank };
    }
    return this.ranked;
  }

  /**
   * Each query word's qualities by token id, in arrays kept between searches (zero but for the word's tokens while
   * a search runs): relevance reads one per token of every scored document, and a Map lookup there was most of
   * the cost of scoring a broad query.
   */
  private qualityArrays(words: ScoringWord[]): Float64Array[] {
    const size = this.text.size;
    return words.map((w, i) => {
      let array = this.wordQualities[i];
      if (!array || array.length < size) array = this.wordQualities[i] = new Float64Array(size * 2);
      w.quality.forEach((q, id) => (array[id] = q));
      return array;
    });
  }

  /**
   * The order of `sorts`, and its first part's number per slot when it has one (SortPart.key), with the least
   * such number when known; `best`: the highest score a match can have (NaN: not known).
   */
  private comparator(sorts: EngineSort[], score: (slot: number) => number, matched: Int32Array, best: number): SortPart {
    const sortParts = sorts.map((s, at) => this.sortPart(s, score, matched, at, best));
    const parts = sortParts.map((p) => p.compare);
    // Ties end in slot order, which is stable across restarts (slots are rowids).
    parts.push((a, b) => a - b);
    const key = sortParts[0]?.key;
    const least = sortParts[0]?.least;
    if (parts.length === 2) {
      const [first, last] = parts as [Comparator, Comparator];
      return { compare: (a, b) => first(a, b) || last(a, b), key, least };
    }
    return {
      compare: (a, b) => {
        for (const part of parts) {
          const d = part(a, b);
          if (d !== 0) return d;
        }
        return 0;
      },
      key,
      least,
    };
  }

  /** `at`: the sort's place among the evaluation's sorts; `best` as comparator's. */
  private sortPart(sort: EngineSort, score: (slot: number) => number, matched: Int32Array, at: number, best: number): SortPart {
    switch (sort.kind) {
      case "relevance":
        return { compare: (a, b) => score(b) - score(a), key: (slot) => -score(slot), least: -best };
      case "number": {
        const column = this.numbers.get(sort.field);
        if (!column) return { compare: () => 0 };
        const values = column.values;
        const sign = sort.order === "asc" ? 1 : -1;
        const bucket = sort.bucket;
        const value = bucket
          ? (slot: number) => Math.floor(((slot < values.length ? values[slot]! : NaN) - bucket.origin) / bucket.width)
          : (slot: number) => (slot < values.length ? values[slot]! : NaN);
        const compare: Comparator = (a, b) => {
          const va = value(a);
          const vb = value(b);
          if (Number.isNaN(va) || Number.isNaN(vb)) return Number.isNaN(va) && Number.isNaN(vb) ? 0 : Number.isNaN(va) ? 1 : -1;
          return sign * (va - vb);
        };
        // A bucket that makes infinite keys would tie them where the comparator does not (Infinity - Infinity).
        const finite = !bucket || (Number.isFinite(bucket.width) && bucket.width !== 0 && Number.isFinite(bucket.origin));
        return finite ? { compare, key: (slot) => sign * value(slot) } : { compare };
      }
      case "text": {
        const ranks = this.textRank(sort.field, sort.locale);
        const sign = sort.order === "asc" ? 1 : -1;
        return { compare: (a, b) => sign * (ranks[a]! - ranks[b]!), key: (slot) => sign * ranks[slot]! };
      }
      case "pinned": {
        const position = new Map<string, number>();
        sort.ids.forEach((id, i) => position.has(id) || position.set(id, i));
        const at = (slot: number) => position.get(this.ids[slot]!) ?? Infinity;
        return { compare: (a, b) => at(a) - at(b) || 0, key: at };
      }
      case "liftPerGroup":
        return { compare: this.liftComparator(sort, matched) };
      case "prefer": {
        // One weight per filter, each above all later ones together: comparing sums compares in filter order.
        const filters = sort.filters.slice(0, MAX_PREFER_FILTERS);
        return this.weightedPart(
          filters.map((filter, i) => ({ filter, weight: 2 ** (filters.length - 1 - i) })),
          matched,
          at,
        );
      }
      case "weighted":
        return this.weightedPart(
          sort.filters
            .slice(0, MAX_WEIGHTED_FILTERS)
            .map((f) => ({ filter: { kind: "terms", key: f.key, values: f.values }, weight: f.weight })),
          matched,
          at,
        );
    }
  }

  /**
   * Documents by the sum of the weights (whole numbers) of the filters they pass, highest first (query
   * understanding's prefer, a rule's boosts and buries). Per slot, computed on first comparison, since topK compares
   * a broad query's tens of thousands of matches several times each; `at` picks the sums' room.
   */
  private weightedPart(parts: { filter: EngineFilter; weight: number }[], matched: Int32Array, at: number): SortPart {
    const broad = matched.length > this.live * BROAD;
    const tests = parts.map((p) => ({ test: this.compileFilter(p.filter, broad).test, weight: p.weight }));
    const { values: sums, stamps, round } = (this.sums[at] ??= new SlotMemo()).begin(this.ids.length);
    const sum = (slot: number) => {
      if (stamps[slot] === round) return sums[slot]!;
      let n = 0;
      for (const t of tests) if (t.test(slot)) n += t.weight;
      sums[slot] = n;
      stamps[slot] = round;
      return n;
    };
    const most = parts.reduce((total, p) => total + Math.max(0, p.weight), 0);
    return { compare: (a, b) => sum(b) - sum(a), key: (slot) => -sum(slot), least: -most };
  }

  /** Lifted documents first, in hash order; the rest tie here so the next sorts decide. */
  private liftComparator(sort: Extract<EngineSort, { kind: "liftPerGroup" }>, matched: Int32Array): Comparator {
    const k = this.keyIndex.get(sort.key);
    const hash = new Map<number, number>();
    const groups = new Map<number, number[]>();
    for (const slot of matched) {
      const group = k === undefined ? undefined : this.slotValues.of(slot).find((id) => this.valueKey[id] === k);
      if (group === undefined) continue;
      hash.set(slot, stableHash(`${sort.seed}\u0000${this.ids[slot]}`));
      const list = groups.get(group);
      if (list) list.push(slot);
      else groups.set(group, [slot]);
    }
    const lifted = new Set<number>();
    for (const list of groups.values()) {
      list.sort((a, b) => hash.get(a)! - hash.get(b)!);
      for (const slot of list.slice(0, sort.perGroup)) lifted.add(slot);
    }
    return (a, b) => {
      const la = lifted.has(a);
      const lb = lifted.has(b);
      if (la && lb) return hash.get(a)! - hash.get(b)!;
      return la === lb ? 0 : la ? -1 : 1;
    };
  }

  /** Collation rank of every slot by a text field, computed once per field and locale until the index changes. */
  private textRank(field: string, locale: string): Int32Array {
    const cacheKey = `${field}\u0000${locale}`;
    let ranks = this.textRanks.get(cacheKey);
    if (!ranks) {
      const slots = [...this.liveSlots()];
      const collator = new Intl.Collator(locale, { sensitivity: "base", numeric: true });
      const textOf = (slot: number) => this.held.sortText(slot, field) ?? "";
      slots.sort((a, b) => collator.compare(textOf(a), textOf(b)) || a - b);
      ranks = new Int32Array(this.ids.length);
      slots.forEach((slot, rank) => (ranks![slot] = rank));
      this.textRanks.set(cacheKey, ranks);
    }
    return ranks;
  }

  /** Estimated heap bytes of what the index holds, by structure (the memory bench's breakdown). */
  memoryReport(): Record<string, number> {
    const text = this.text.memoryReport();
    const typo = this.vocabulary.memoryReport();
    let numbers = 0;
    for (const column of this.numbers.values()) numbers += typedBytes(column.values);
    for (const ranks of this.textRanks.values()) numbers += typedBytes(ranks);
    // A search's room for its scores, matches, sort keys and range values, kept for the next.
    let scratch = 0;
    for (const memo of [this.scores, ...this.sums]) scratch += memo.memoryBytes();
    for (const room of [this.scratchMatched, this.scratchNearly, this.scratchGroups, this.scratchKeys, this.scratchNumbers])
      scratch += typedBytes(room);
    let facets = this.slotValues.memoryBytes() + stringsBytes(this.valueNames) + arrayBytes(this.valueKey.length);
    for (const ids of this.valueIds) facets += mapBytes(ids.size);
    for (const mask of this.filterMasks.values()) facets += typedBytes(mask);
    for (const byPassing of this.selections.values()) for (const kept of byPassing) if (kept?.counts) facets += typedBytes(kept.counts);
    for (const held of [this.totals, this.ranked?.rank, this.ranked?.byRank]) if (held) facets += typedBytes(held);
    return {
      "text index: posting lists": text.postings,
      "text index: token sequences": text.sequences,
      "text index: weighted tokens": this.slotTokens.memoryBytes(),
      vocabulary: text.dictionary,
      "facet lists": facets,
      "typo index: words": typo.words,
      "typo index: deletions": typo.deletions,
      "ids, identifiers, sort text":
        arrayBytes(this.ids.length) +
        stringsBytes(this.liveSlots().map((slot) => this.ids[slot]!)) +
        this.slotOf.memoryBytes() +
        this.held.memoryBytes(),
      "number columns": numbers + scratch,
    };
  }
}

/** A query word's tokens as relevance looks them up in a slot's sorted tokens: `token * 8` and the quality of each. */
interface WordTokens {
  keys: Float64Array;
  quality: Float64Array;
}

/**
 * The score of a match that has every word in the name at its best quality, summed as relevance sums: no match
 * scores higher (each word's term is at most this one's, and sums of larger terms are not smaller).
 */
function bestScore(words: ScoringWord[]): number {
  let score = 0;
  for (const word of words) {
    let quality = 0;
    word.quality.forEach((q) => (quality = Math.max(quality, q)));
    score += word.idf * Math.max(FIELD_WEIGHTS[0]! * quality, DESCRIPTION_WEIGHT * 0.5);
  }
  return score;
}

/** Tokens a word may have for relevance to look each up; past this, one scan of a slot's tokens costs less. */
const LOOKUP_TOKENS = 4;

function wordTokens({ quality }: ScoringWord): WordTokens | null {
  if (quality.size > LOOKUP_TOKENS) return null;
  const keys = new Float64Array(quality.size);
  const qualities = new Float64Array(quality.size);
  let j = 0;
  quality.forEach((q, id) => {
    keys[j] = id * 8;
    qualities[j++] = q;
  });
  return { keys, quality: qualities };
}

/** `array` with `value` at `at`, grown (twice as long) when `at` is past its end. */
function put(array: Uint32Array, at: number, value: number): Uint32Array {
  const room = at < array.length ? array : grownTo(array, at + 1);
  room[at] = value;
  return room;
}

/** The distinct numbers among the first `n` of `values`, ascending, sorted in place: a view of `values`. */
function sortedUnique(values: Uint32Array, n: number): Uint32Array {
  const sorted = values.subarray(0, n).sort();
  let m = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[m - 1]) sorted[m++] = sorted[i]!;
  return sorted.subarray(0, m);
}
