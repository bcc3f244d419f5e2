import type { SynonymBody, SynonymSet } from "../synonym-schema.ts";

/**
 * A store's synonym sets (deleted with the store): the interface both durable stores implement (synonyms-repo.ts,
 * postgres/synonyms-repo.ts), held to the same behaviour by server/test/repository-conformance.test.ts.
 */
export interface SynonymsRepository {
  get(storeId: string, id: string): Promise<SynonymSet | null>;
  /** By id (byte order); `limit` null: all of them. */
  list(storeId: string, from: number, limit: number | null): Promise<SynonymSet[]>;
  count(storeId: string): Promise<number>;
  /** Which of `ids` the store has. */
  existing(storeId: string, ids: readonly string[]): Promise<Set<string>>;
  /** Inserts or replaces sets, all or none. */
  put(storeId: string, sets: readonly { id: string; body: SynonymBody }[], at: number): Promise<void>;
  delete(storeId: string, id: string): Promise<boolean>;
}

/** A row of either store as a SynonymSet: input null for a multi-way set; synonyms a JSON array. */
export interface SynonymRow {
  id: string;
  input: string | null;
  synonyms: string;
  updated_at: number;
}

export const toSynonymSet = (r: SynonymRow): SynonymSet => ({
  id: r.id,
  type: r.input === null ? "multiWay" : "oneWay",
  ...(r.input === null ? {} : { input: r.input }),
  synonyms: JSON.parse(r.synonyms) as string[],
  updatedAt: new Date(r.updated_at).toISOString(),
});
