import type { EngineSort } from "../../engine/types.ts";
import type { EffectiveSettings } from "../settings/settings-schema.ts";

/*
 * The spec's sortBy values as engine sorts. Each ends with relevance, so equal keys keep the best matches
 * first (inside a newness block, for instance), and products lacking the sort value come last.
 */

export const SORT_BY_VALUES = [
  "relevance",
  "rating",
  "rating2",
  "new",
  "newc",
  "newc2",
  "vendor_based_newness",
  "purchase",
  "pricea",
  "priced",
  "namea",
  "named",
  "stocka",
  "stockd",
  "campaign",
] as const;

export type SortBy = (typeof SORT_BY_VALUES)[number];

export interface SortContext {
  settings: EffectiveSettings;
  now: number;
  campaignProducts: string[];
  /** Seeds vendor_based_newness: the same shopper sees the same lifted products on every page that day. */
  shopperKey: string;
}

const DAY = 86_400_000;
const RELEVANCE: EngineSort = { kind: "relevance" };

export function engineSorts(sortBy: SortBy | undefined, ctx: SortContext): EngineSort[] {
  const blocks = ctx.settings.newnessDays * DAY;
  // Age in n-day blocks counted from now (newc2): floor((now - arrival) / n days), youngest block first.
  const ageBlocks: EngineSort = { kind: "number", field: "arrival_ts", order: "asc", bucket: { origin: ctx.now, width: -blocks } };
  switch (sortBy) {
    case undefined:
    case "relevance":
      return [RELEVANCE];
    case "rating":
      return [{ kind: "number", field: "rating_wilson", order: "desc" }, RELEVANCE];
    case "rating2":
      return [{ kind: "number", field: "rating_bayes", order: "desc" }, RELEVANCE];
    case "new":
      return [{ kind: "number", field: "arrival_ts", order: "desc" }, RELEVANCE];
    case "newc":
      // Arrival divided into n-day blocks counted from the epoch, newest block first.
      return [{ kind: "number", field: "arrival_ts", order: "desc", bucket: { origin: 0, width: blocks } }, RELEVANCE];
    case "newc2":
      return [ageBlocks, RELEVANCE];
    case "vendor_based_newness": {
      const day = Math.floor(ctx.now / DAY);
      return [
        { kind: "liftPerGroup", key: "designer", perGroup: ctx.settings.vendorLiftPerVendor, seed: `${ctx.shopperKey}:${day}` },
        ageBlocks,
        RELEVANCE,
      ];
    }
    case "purchase":
      return [{ kind: "number", field: "purchases", order: "desc" }, RELEVANCE];
    case "pricea":
      return [{ kind: "number", field: "price_min", order: "asc" }, RELEVANCE];
    case "priced":
      return [{ kind: "number", field: "price_min", order: "desc" }, RELEVANCE];
    case "namea":
      return [{ kind: "text", field: "name", order: "asc", locale: ctx.settings.locale }];
    case "named":
      return [{ kind: "text", field: "name", order: "desc", locale: ctx.settings.locale }];
    case "stocka":
      return [{ kind: "number", field: "stock", order: "asc" }, RELEVANCE];
    case "stockd":
      return [{ kind: "number", field: "stock", order: "desc" }, RELEVANCE];
    case "campaign":
      return [{ kind: "pinned", ids: ctx.campaignProducts }, RELEVANCE];
  }
}
