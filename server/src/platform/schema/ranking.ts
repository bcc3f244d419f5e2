import type { Dialect } from "./dialect.ts";
import { keyedByStore, type Table } from "./table.ts";

/*
 * Ranking from behaviour and personalisation. Values are log2 of a decayed sum, taken at time 0 (see
 * lib/decay.ts): adding an event is one log-add and nothing has to be rewritten as time passes. Log
 * sums of nothing are stored as -1e308 (analytics-state-repository.ts).
 */

/**
 * What one shopper (user id, else session id) already counted today per product, so repeats count once per day.
 */
export const behaviourSeen = (d: Dialect): Table =>
  keyedByStore(d, "behaviour_seen", {
    key: [
      `day         ${d.sortedText} NOT NULL`,
      "actor       TEXT NOT NULL",
      "kind        TEXT NOT NULL",
      "query       TEXT NOT NULL",
      "product_id  TEXT NOT NULL",
    ],
  });

/** Evidence per query and product ('' query: per product), and its decayed click and conversion counts. */
export const behaviourScores = (d: Dialect): Table =>
  keyedByStore(d, "behaviour_scores", {
    key: [`query        ${d.sortedText} NOT NULL`, `product_id   ${d.sortedText} NOT NULL`],
    values: [`evidence     ${d.double} NOT NULL`, `clicks       ${d.double} NOT NULL`, `conversions  ${d.double} NOT NULL`],
  });

/** A shopper's (u:<userId> or s:<sessionId>) affinity to facet values (brand, category, colour, price band). */
export const shopperAffinities = (d: Dialect): Table =>
  keyedByStore(d, "shopper_affinities", {
    key: ["shopper   TEXT NOT NULL", "facet     TEXT NOT NULL", "value     TEXT NOT NULL"],
    values: [`weight    ${d.double} NOT NULL`],
  });
