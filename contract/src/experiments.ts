/*
 * Experiments (A/B tests) as the admin API takes and answers them (/experiments; docs/experiments.md defines every
 * figure). POST and PUT take an ExperimentBody; the server's validation schema
 * (server/src/modules/experiments/experiment-schema.ts) is checked to be exactly it, and adds the bounds.
 */

import type { StoreSettingsBody } from "./settings.ts";

/** The store settings a variant may change: the ones that decide what shoppers see. */
export type VariantSettings = Pick<
  StoreSettingsBody,
  "behaviourRanking" | "personalisation" | "facets" | "facetShownValues" | "newnessDays" | "vendorLiftPerVendor" | "ratingPrior" | "widget"
>;

/** What a variant changes of the store's behaviour; absent members are the store's own. */
export interface VariantOverrides {
  settings?: VariantSettings;
  /** Ids of query rules in force only for this variant's shoppers. */
  rules?: string[];
  /** Ids of synonym sets in force only for this variant's shoppers. */
  synonymSets?: string[];
  /** Complete-the-look: how many looks are composed, and what a piece's composed score weighs (each 0 to 1). */
  looks?: {
    looks?: number;
    weights?: { colour: number; occasion: number; season: number; price: number };
    shopperEvidence?: boolean;
  };
}

/** Which searches an experiment covers. */
export type ExperimentScope =
  | { type: "all" }
  | { type: "query"; pattern: string; anchoring: "is" | "startsWith" | "contains" }
  | { type: "collection"; collection: string };

export type ExperimentMode = "ab" | "interleaving";

export interface ExperimentVariant {
  name: string;
  /** Percent of the scope's shoppers, a whole number; the variants' shares sum to 100. */
  share: number;
  overrides?: VariantOverrides;
}

/** What POST /experiments and PUT /experiments/{id} take. The first variant is the control. */
export interface ExperimentBody {
  name: string;
  scope: ExperimentScope;
  mode: ExperimentMode;
  variants: ExperimentVariant[];
}

export type ExperimentStatus = "draft" | "running" | "stopped" | "ended";

/** GET /experiments/{id}, and what every change answers. Times are ISO 8601. */
export interface Experiment extends ExperimentBody {
  id: string;
  status: ExperimentStatus;
  /** The winning variant's name, once ended with one. */
  winner: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  endedAt: string | null;
}

/** GET /experiments, by id. */
export interface ExperimentList {
  experiments: Experiment[];
}

/** POST /experiments/{id}/end: the settings the winner applied, and what it left for staff to decide. */
export interface ExperimentEndReport {
  experiment: Experiment;
  appliedSettings: string[];
  /** Rules and synonym sets only losing variants named: still as they were before the experiment. */
  review: { rules: string[]; synonymSets: string[] };
}

/** GET /experiments/{id}/sample-size. */
export interface SampleSizeEstimate {
  shoppersPerVariant: number;
  shoppers: number;
  days: number;
}

/** A 95% confidence interval. */
export interface Interval {
  low: number;
  high: number;
}

/** A variant's figure against the control's. */
export interface Comparison {
  /** Variant minus control. */
  difference: number;
  interval: Interval;
  pValue: number;
  /** pValue below the results' alpha. */
  significant: boolean;
}

export interface RateResult {
  /** Shoppers who did it at least once. */
  shoppers: number;
  rate: number;
  interval: Interval;
  /** Against the control (the first variant); null for the control itself and while either side has no shoppers. */
  vsControl: Comparison | null;
}

export interface RevenueResult {
  shoppers: number;
  /** Mean capped revenue per shopper of this currency. */
  perShopper: number;
  interval: Interval;
  vsControl: Comparison | null;
}

export interface VariantResult {
  name: string;
  share: number;
  control: boolean;
  shoppers: number;
  searches: number;
  clickThrough: RateResult;
  addToCart: RateResult;
  conversion: RateResult;
  /** By currency (ISO 4217; XXX for shoppers whose currency no event named). */
  revenue: Record<string, RevenueResult>;
}

/** GET /experiments/{id}/results. */
export interface ExperimentResults {
  experiment: Pick<Experiment, "id" | "name" | "mode" | "status" | "startedAt" | "endedAt" | "winner">;
  alpha: number;
  /** Shoppers left out (bots, too many events) and searches not counted (found nothing). */
  excluded: { bots: number; tooManyEvents: number; emptySearches: number };
  /** The cap applied to each currency's revenue per shopper (the buyers' 99th percentile across variants). */
  revenueCap: Record<string, number>;
  variants: VariantResult[];
  /** Interleaving experiments only (null for A/B). */
  interleaving: InterleavingResult | null;
}

/**
 * Interleaving experiments only: which ranking the shoppers' clicks preferred (team-draft credits, and a sign
 * test over the shoppers who preferred one ranking).
 */
export interface InterleavingResult {
  credits: { A: number; B: number };
  shoppers: { preferA: number; preferB: number; ties: number };
  pValue: number | null;
  significant: boolean;
  /** The preferred ranking's variant name, when significant. */
  winner: string | null;
}

/** Event data fields that say which experiment and variant the event's answer came from, and their bounds. */
export const EXPERIMENT_EVENT_FIELDS = { experimentId: /^exp_[a-f0-9]{32}$/, variantMaxLength: 100 } as const;
