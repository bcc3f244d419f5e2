import type { Dialect } from "./dialect.ts";
import { keyedByStore, type Table } from "./table.ts";

/* What a store's staff set up for its search: synonym sets and query rules. */

/**
 * A store's synonym sets (issue 20): input NULL for a multi-way set, the phrase typed for a one-way one; synonyms
 * is a JSON array of words or phrases.
 */
export const synonyms = (d: Dialect): Table =>
  keyedByStore(d, "synonyms", {
    key: [`id          ${d.sortedText} NOT NULL`],
    values: ["input       TEXT", "synonyms    TEXT NOT NULL", `updated_at  ${d.bigint} NOT NULL`],
  });

/** Query rules (merchandising): a store's rule as its JSON (modules/rules/rule-schema.ts), read whole per store. */
export const queryRules = (d: Dialect): Table =>
  keyedByStore(d, "query_rules", {
    key: [`id          ${d.sortedText} NOT NULL`],
    values: ["rule        TEXT NOT NULL", `updated_at  ${d.bigint} NOT NULL`],
  });
