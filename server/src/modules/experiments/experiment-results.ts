import { UNKNOWN_CURRENCY } from "../analytics/event-facts.ts";
import type { Experiment } from "./experiment-schema.ts";
import { exclusion } from "./experiment-tally.ts";
import type { ShopperCounts } from "./storage/experiments-repository.ts";
import {
  ALPHA,
  cappedMoments,
  compareProportions,
  meanInterval,
  revenueCap,
  signTest,
  welchTest,
  wilsonInterval,
  type Comparison,
  type Interval,
} from "./statistics.ts";

/* An experiment's results from its shoppers' counters: per variant the counts, each rate and mean with its interval, and the difference to the control. */

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

export interface ExperimentResults {
  experiment: Pick<Experiment, "id" | "name" | "mode" | "status" | "startedAt" | "endedAt" | "winner">;
  alpha: number;
  excluded: { bots: number; tooManyEvents: number; emptySearches: number };
  /** The cap applied to each currency's revenue per shopper (the buyers' 99th percentile across variants). */
  revenueCap: Record<string, number>;
  variants: VariantResult[];
  /** Interleaving experiments only (null for A/B): which ranking the shoppers' clicks preferred. */
  interleaving: InterleavingResult | null;
}

/**
 * Team-draft credits. Each click on an interleaved list credits the ranking that placed the product; a shopper
 * prefers the ranking their clicks credited more. The sign test asks whether the shoppers who prefer one ranking
 * outnumber those who prefer the other by more than chance (ties tell nothing and are left out).
 */
export interface InterleavingResult {
  credits: { A: number; B: number };
  shoppers: { preferA: number; preferB: number; ties: number };
  pValue: number | null;
  significant: boolean;
  /** The preferred ranking's variant name, when significant. */
  winner: string | null;
}

function interleavingOf(experiment: Experiment, members: readonly Member[]): InterleavingResult {
  const credited = members.filter((t) => t.creditsA + t.creditsB > 0);
  const preferA = credited.filter((t) => t.creditsA > t.creditsB).length;
  const preferB = credited.filter((t) => t.creditsB > t.creditsA).length;
  const pValue = signTest(preferA, preferB);
  const significant = pValue !== null && pValue < ALPHA;
  return {
    credits: { A: members.reduce((s, t) => s + t.creditsA, 0), B: members.reduce((s, t) => s + t.creditsB, 0) },
    shoppers: { preferA, preferB, ties: credited.length - preferA - preferB },
    pValue,
    significant,
    winner: significant ? experiment.variants[preferA > preferB ? 0 : 1]!.name : null,
  };
}

type Flag = "clicked" | "carted" | "ordered";

/** A shopper's counters with the currency their revenue is reported in. */
type Member = ShopperCounts & { currency: string };

function rate(members: readonly Member[], control: readonly Member[] | null, flag: Flag): RateResult {
  const successes = members.filter((t) => t[flag]).length;
  const trials = members.length;
  const vsControl = control
    ? compareProportions({ successes: control.filter((t) => t[flag]).length, trials: control.length }, { successes, trials })
    : null;
  return { shoppers: successes, rate: trials ? successes / trials : 0, interval: wilsonInterval(successes, trials), vsControl };
}

export function resultsOf(experiment: Experiment, shoppers: Iterable<ShopperCounts>): ExperimentResults {
  const groups: Member[][] = experiment.variants.map(() => []);
  const excluded = { bots: 0, tooManyEvents: 0, emptySearches: 0 };
  for (const t of shoppers) {
    excluded.emptySearches += t.emptySearches;
    const why = exclusion(t);
    if (why === "bot") excluded.bots++;
    else if (why === "tooManyEvents") excluded.tooManyEvents++;
    else if (!why) groups[t.variant]?.push({ ...t, currency: t.currency ?? UNKNOWN_CURRENCY });
  }
  const currencies = [...new Set(groups.flat().map((t) => t.currency))].sort();
  const caps = Object.fromEntries(
    currencies.map((c) => [
      c,
      revenueCap(
        groups
          .flat()
          .filter((t) => t.currency === c)
          .map((t) => t.revenue),
      ),
    ]),
  );
  const revenues = (members: readonly Member[], currency: string) =>
    cappedMoments(
      members.filter((t) => t.currency === currency).map((t) => t.revenue),
      caps[currency]!,
    );
  const control = groups[0]!;
  const variants = experiment.variants.map((v, i): VariantResult => {
    const members = groups[i]!;
    const against = i === 0 ? null : control;
    return {
      name: v.name,
      share: v.share,
      control: i === 0,
      shoppers: members.length,
      searches: members.reduce((s, t) => s + t.searches, 0),
      clickThrough: rate(members, against, "clicked"),
      addToCart: rate(members, against, "carted"),
      conversion: rate(members, against, "ordered"),
      revenue: Object.fromEntries(
        currencies.map((c) => {
          const m = revenues(members, c);
          return [
            c,
            {
              shoppers: m.n,
              perShopper: m.mean,
              interval: meanInterval(m),
              vsControl: against ? welchTest(revenues(control, c), m) : null,
            },
          ];
        }),
      ),
    };
  });
  const { id, name, mode, status, startedAt, endedAt, winner } = experiment;
  return {
    experiment: { id, name, mode, status, startedAt, endedAt, winner },
    alpha: ALPHA,
    excluded,
    // JSON has no Infinity: a currency nobody bought in has no cap to report.
    revenueCap: Object.fromEntries(Object.entries(caps).filter(([, cap]) => Number.isFinite(cap))),
    variants,
    interleaving: mode === "interleaving" ? interleavingOf(experiment, groups.flat()) : null,
  };
}
