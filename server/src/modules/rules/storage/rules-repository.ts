/** A query rule as stored: its JSON (modules/rules/rule-schema.ts) and when it was last written. */
export interface StoredRule {
  id: string;
  rule: string;
  updatedAt: number;
}

/**
 * A store's query rules (merchandising), deleted with the store: the interface both durable stores implement
 * (rules-repo.ts, postgres/rules-repo.ts), held to the same behaviour by server/test/repository-conformance.test.ts.
 */
export interface RulesRepository {
  get(storeId: string, id: string): Promise<StoredRule | null>;
  /** Every rule of the store, by id (byte order): what the store's rule book is compiled from. */
  all(storeId: string): Promise<StoredRule[]>;
  /** Rules by id, `limit` of them from the `from`-th. */
  page(storeId: string, from: number, limit: number): Promise<StoredRule[]>;
  count(storeId: string): Promise<number>;
  /**
   * Writes rules, all in one transaction, each unless the store would then hold more than `max` (those are
   * returned). Concurrent writers of a store (other replicas) wait for each other, so the bound holds.
   */
  putAll(storeId: string, rules: readonly { id: string; rule: string }[], at: number, max: number): Promise<Set<string>>;
  delete(storeId: string, id: string): Promise<boolean>;
}
