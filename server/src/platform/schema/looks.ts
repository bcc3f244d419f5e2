import type { Dialect } from "./dialect.ts";
import { keyedByStore, type Table } from "./table.ts";

/* Complete the look: what was learned about products that go together, and what the store curated. */

/**
 * Evidence that two products go together (orders with both, look clicks), one row per direction so a product's
 * partners are one range read.
 */
export const lookPairs = (d: Dialect): Table =>
  keyedByStore(d, "look_pairs", {
    key: ["product_id  TEXT NOT NULL", "other_id    TEXT NOT NULL"],
    values: [`evidence    ${d.double} NOT NULL`],
  });

/** Look clicks already counted: one per shopper session and pair, so one client cannot move a look. */
export const lookClicks = (d: Dialect): Table =>
  keyedByStore(d, "look_clicks", {
    key: ["session_id  TEXT NOT NULL", "product_id  TEXT NOT NULL", "other_id    TEXT NOT NULL"],
  });

/**
 * Looks a store curated for a product (a JSON list of looks, each a list of product ids): shown before the composed
 * ones.
 */
export const pinnedLooks = (d: Dialect): Table =>
  keyedByStore(d, "pinned_looks", {
    key: ["product_id  TEXT NOT NULL"],
    values: ["looks       TEXT NOT NULL", `updated_at  ${d.bigint} NOT NULL`],
  });
