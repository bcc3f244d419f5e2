import type { Dialect } from "./dialect.ts";
import { STORE_ID, type Table } from "./table.ts";

/* Complete the look: what was learned about products that go together, and what the store curated. */

/** Evidence that two products go together (orders with both, look clicks), one row per direction so a product's partners are one range read. */
export const lookPairs = (d: Dialect): Table => ({
  name: "look_pairs",
  columns: [STORE_ID, "product_id  TEXT NOT NULL", "other_id    TEXT NOT NULL", `evidence    ${d.double} NOT NULL`],
  key: "PRIMARY KEY (store_id, product_id, other_id)",
  options: d.withoutRowid,
});

/** Look clicks already counted: one per shopper session and pair, so one client cannot move a look. */
export const lookClicks = (d: Dialect): Table => ({
  name: "look_clicks",
  columns: [STORE_ID, "session_id  TEXT NOT NULL", "product_id  TEXT NOT NULL", "other_id    TEXT NOT NULL"],
  key: "PRIMARY KEY (store_id, session_id, product_id, other_id)",
  options: d.withoutRowid,
});

/** Looks a store curated for a product (a JSON list of looks, each a list of product ids): shown before the composed ones. */
export const pinnedLooks = (d: Dialect): Table => ({
  name: "pinned_looks",
  columns: [STORE_ID, "product_id  TEXT NOT NULL", "looks       TEXT NOT NULL", `updated_at  ${d.bigint} NOT NULL`],
  key: "PRIMARY KEY (store_id, product_id)",
  options: d.withoutRowid,
});
