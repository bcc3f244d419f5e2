import type { Dialect } from "./dialect.ts";
import { keyedByStore, type Table } from "./table.ts";

/* A store's experiments (issue 40): what each tests, as its JSON (modules/experiments/experiment-schema.ts), and where it stands. */

export const experiments = (d: Dialect): Table =>
  keyedByStore(d, "experiments", {
    key: [`id          ${d.sortedText} NOT NULL`],
    values: [
      "body        TEXT NOT NULL",
      "status      TEXT NOT NULL",
      "winner      TEXT",
      `created_at  ${d.bigint} NOT NULL`,
      `updated_at  ${d.bigint} NOT NULL`,
      `started_at  ${d.bigint}`,
      `ended_at    ${d.bigint}`,
    ],
  });

/**
 * What each shopper did in an experiment while it ran, counted by the analytics worker (modules/experiments/
 * experiment-counter.ts) with the batch of events it came from: results read one row per shopper, never the events.
 * Flags are 0/1 ("did it at least once"); currency is the last one the shopper's events named.
 */
export const experimentShoppers = (d: Dialect): Table =>
  keyedByStore(d, "experiment_shoppers", {
    key: [`experiment_id   ${d.sortedText} NOT NULL`, `shopper         ${d.sortedText} NOT NULL`],
    values: [
      `variant         ${d.smallint} NOT NULL`,
      `searches        ${d.bigint} NOT NULL`,
      `empty_searches  ${d.bigint} NOT NULL`,
      `clicked         ${d.smallint} NOT NULL`,
      `carted          ${d.smallint} NOT NULL`,
      `ordered         ${d.smallint} NOT NULL`,
      `revenue         ${d.double} NOT NULL`,
      "currency        TEXT",
      `events          ${d.bigint} NOT NULL`,
      `bot             ${d.smallint} NOT NULL`,
      // Interleaving: the shopper's clicks on products each ranking placed (the click's interleavedFrom).
      `credits_a       ${d.bigint} NOT NULL DEFAULT 0`,
      `credits_b       ${d.bigint} NOT NULL DEFAULT 0`,
    ],
  });
