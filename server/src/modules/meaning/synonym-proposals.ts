import type { SynonymProposal } from "@storefront-search/contract";
import type { ReportsRepository } from "../reports/storage/reports-repository.ts";
import type { SearchLogRepository } from "../search-log/storage/search-log-repository.ts";
import { tokenize } from "../../text/normalize.ts";
import type { StoreRef, SynonymService } from "../synonyms/synonym-service.ts";
import type { MeaningService } from "./meaning-service.ts";

/*
 * Synonym sets proposed to the merchandiser from what the store learned (meaning-service.ts): for each query its
 * shoppers searched and found nothing for, or found things but clicked none of them (the reports' searches), and each
 * imported query its previous provider says led somewhere, the product types nearest the query's meaning. A
 * proposal is a one-way set (the query finds those words' products) with its evidence; the merchandising page
 * accepts one with PUT /synonyms/{id}. Queries a set already covers are left out.
 */

const REPORT_DAYS = 30;
const CANDIDATES = 300;
const WORDS = 3;
/** A word closer than this to a query's meaning is worth proposing. */
const MIN_CLOSENESS = 0.7;
/** A proposed type holds at least this many products (a kind the shopper can browse, not a catalog oddity). */
const MIN_TYPE_PRODUCTS = 20;

/** Of a store's vocabulary, the product types, with how many products each has, and which of them are groups. */
export interface ProductTypeWords {
  types: ReadonlyMap<string, number>;
  groups: ReadonlySet<string>;
}

/** Queries of more words than this are left out: a set is for a word or a name, not a whole request. */
const MAX_QUERY_WORDS = 2;

const MAX_PROPOSALS = 50;
const DAY_MS = 86_400_000;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class SynonymProposals {
  constructor(
    private readonly d: {
      meaning: Pick<MeaningService, "ready">;
      reports: Pick<ReportsRepository, "queries">;
      searchLog: Pick<SearchLogRepository, "queryEvidence">;
      synonyms: Pick<SynonymService, "matcher">;
      /** The store's product types (search/query-vocabulary.ts gives them): the words a proposal may hold. */
      vocabularies: { of(storeId: string): Promise<ProductTypeWords> };
      /** How many products a query finds as search reads it: an imported query that finds some needs no set. */
      count: (storeId: string, query: string) => Promise<number>;
      now: () => number;
    },
  ) {}

  async of(store: StoreRef): Promise<SynonymProposal[]> {
    const model = await this.d.meaning.ready(store.id);
    if (!model) return [];
    const scope = {
      storeId: store.id,
      from: isoDay(this.d.now() - REPORT_DAYS * DAY_MS),
      to: isoDay(this.d.now()),
      region: null,
      language: null,
      currency: null,
    };
    const vocabulary = await this.d.vocabularies.of(store.id);
    const [noResults, noClicks, imported, matcher] = await Promise.all([
      this.d.reports.queries(scope, "no-results", CANDIDATES),
      this.d.reports.queries(scope, "no-clicks", CANDIDATES),
      this.d.searchLog.queryEvidence(store.id, CANDIDATES),
      this.d.synonyms.matcher(store),
    ]);
    // A query a set already covers needs none; one of many words is a request, not a word or a name.
    const proposable = (query: string) => !matcher.match(query).length && tokenize(query).length <= MAX_QUERY_WORDS;
    const candidates = new Map<string, SynonymProposal["evidence"]>();
    for (const q of [...noResults, ...noClicks]) {
      const held = candidates.get(q.query);
      if (!held)
        candidates.set(q.query, {
          searches: q.searches,
          noResults: q.noResults,
          noClicks: q.clicked === 0 ? q.searches - q.noResults : 0,
          closeness: [],
          source: "searches",
        });
    }
    for (const q of imported) {
      if (candidates.has(q.query) || !proposable(q.query) || (await this.d.count(store.id, q.query)) > 0) continue;
      candidates.set(q.query, { searches: q.searches, noResults: q.searches, noClicks: 0, closeness: [], source: "import" });
    }
    const out: SynonymProposal[] = [];
    for (const [query, evidence] of candidates) {
      if (!proposable(query)) continue;
      const vector = model.queryVector(query);
      if (!vector) continue;
      const own = new Set(tokenize(query));
      // A proposed word names a kind of product the catalog files ("sunglasses"), not a brand or the one product
      // the shoppers happened to click, nor a heading over many kinds ("clothing", "accessories"): the set then
      // finds that kind.
      const words = model.nearestWords(
        vector,
        WORDS,
        MIN_CLOSENESS,
        (w) => (vocabulary.types.get(w) ?? 0) >= MIN_TYPE_PRODUCTS && !vocabulary.groups.has(w) && !own.has(w),
      );
      if (!words.length) continue;
      out.push({
        id: proposalId(query),
        input: query,
        synonyms: words.map((w) => w.item),
        evidence: { ...evidence, closeness: words.map((w) => Math.round(w.score * 100) / 100) },
      });
    }
    return out.sort((a, b) => b.evidence.searches - a.evidence.searches || (a.input < b.input ? -1 : 1)).slice(0, MAX_PROPOSALS);
  }
}

/** A synonym set id for a query: its letters and digits joined by "-", within the id rules (1 to 64 of A-Za-z0-9_.-). */
function proposalId(query: string): string {
  const slug = query
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 56);
  return `learned-${slug || "query"}`;
}
