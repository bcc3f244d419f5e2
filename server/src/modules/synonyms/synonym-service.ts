import { NotFoundError, ValidationError } from "../../errors.ts";
import type { SynonymsRepo } from "../../db/synonyms-repo.ts";
import type { EngineSearchRequest } from "../../engine/types.ts";
import { readImport, writeExport, type ImportProblem, type SynonymFormat } from "./synonym-formats.ts";
import { SynonymMatcher } from "./synonym-matcher.ts";
import { checkSynonymId, MAX_SYNONYM_SETS, type SynonymBody, type SynonymSet } from "./synonym-schema.ts";

/*
 * A store's synonym sets: kept in SQLite, applied to searches as alternatives of the query's words
 * (EngineSearchRequest.alternatives), which both engines match and rank below the typed words themselves.
 */

/** The store a search runs for: its id and creation time (StoreRow has both). */
export type StoreRef = { id: string; createdAt: number };

export class SynonymService {
  /**
   * Per store, its sets as a SynonymMatcher, built on the store's first search and changed with its sets (a store
   * with the most sets, 100,000 phrases, takes about half a second to build), with the store's creation time: a
   * store deleted and created again under its id (by the CLI, another process) starts without sets.
   */
  private readonly matchers = new Map<string, { generation: number; matcher: SynonymMatcher }>();

  constructor(
    private readonly repo: SynonymsRepo,
    private readonly now: () => number,
  ) {}

  get(storeId: string, id: string): SynonymSet {
    checkSynonymId(id);
    const set = this.repo.get(storeId, id);
    if (!set) throw new NotFoundError(`No synonym set "${id}"`);
    return set;
  }

  list(storeId: string, from: number, limit: number): { synonyms: SynonymSet[]; total: number } {
    return { synonyms: this.repo.list(storeId, from, limit), total: this.repo.count(storeId) };
  }

  put(storeId: string, id: string, body: SynonymBody): SynonymSet {
    checkSynonymId(id);
    if (!this.repo.has(storeId, id) && this.repo.count(storeId) >= MAX_SYNONYM_SETS) {
      throw new ValidationError(`path.id is a new synonym set, and the store holds ${MAX_SYNONYM_SETS}, the most it may; delete some first`, [
        { path: "path.id", problem: `is a new set beyond the limit of ${MAX_SYNONYM_SETS} per store` },
      ]);
    }
    this.repo.put(storeId, [{ id, body }], this.now());
    this.matchers.get(storeId)?.matcher.put({ id, ...body });
    return this.repo.get(storeId, id)!;
  }

  delete(storeId: string, id: string): { id: string; deleted: true } {
    checkSynonymId(id);
    if (!this.repo.delete(storeId, id)) throw new NotFoundError(`No synonym set "${id}"`);
    this.matchers.get(storeId)?.matcher.remove(id);
    return { id, deleted: true };
  }

  /** Imports what an export holds (replacing sets of the same id); items that cannot be read are reported. */
  import(storeId: string, body: unknown, format: SynonymFormat): { imported: number; errors: ImportProblem[] } {
    const { items, errors } = readImport(body, format);
    let room = MAX_SYNONYM_SETS - this.repo.count(storeId);
    const accepted = items.filter((item) => {
      if (this.repo.has(storeId, item.id)) return true;
      if (room > 0) return room--, true;
      errors.push({ index: item.index, id: item.id, message: `the store would hold more than ${MAX_SYNONYM_SETS} synonym sets` });
      return false;
    });
    this.repo.put(storeId, accepted, this.now());
    const held = this.matchers.get(storeId)?.matcher;
    for (const item of accepted) held?.put({ id: item.id, ...item.body });
    return { imported: accepted.length, errors: errors.sort((a, b) => a.index - b.index) };
  }

  export(storeId: string, format: SynonymFormat): unknown {
    return writeExport(this.repo.list(storeId, 0, null), format);
  }

  /** `request` with the alternatives its text's words have in the store's sets (the request itself when none). */
  widen(store: StoreRef, request: EngineSearchRequest): EngineSearchRequest {
    const matches = this.matcher(store).match(request.text);
    return matches.length ? { ...request, alternatives: matches.map((m) => m.alternative) } : request;
  }

  /** For explain: which sets matched which of the text's words. */
  explain(store: StoreRef, text: string): { id: string; matched: string }[] {
    return this.matcher(store)
      .match(text)
      .flatMap((m) => m.sets.map((id) => ({ id, matched: m.matched })));
  }

  private matcher(store: StoreRef): SynonymMatcher {
    const held = this.matchers.get(store.id);
    if (held?.generation === store.createdAt) return held.matcher;
    const matcher = new SynonymMatcher(this.repo.list(store.id, 0, null));
    this.matchers.set(store.id, { generation: store.createdAt, matcher });
    return matcher;
  }
}
