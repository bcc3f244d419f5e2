import type { ExperimentResults, InterleavingResult, RateResult, VariantResult } from "@storefront-search/contract";
import { UNKNOWN_CURRENCY } from "../analytics/event-facts.ts";
import type { Experiment } from "./experiment-schema.ts";
import { exclusion } from "./experiment-tally.ts";
import type { ShopperCounts } from "./storage/experiments-repository.ts";
import { ALPHA, cappedMoments, compareProportions, meanInterval, revenueCap, signTest, welchTest, wilsonInterval } from "./statistics.ts";

/* An experiment's results from its shoppers' counters: per variant the counts, each rate and mean with its interval, and the difference to the control. */

/** Team-draft credits summed over the counted shoppers, and how many of them preferred each ranking. */
interface Credits {
  A: number;
  B: number;
  preferA: number;
  preferB: number;
  ties: number;
}

/**
 * Each click on an interleaved list credits the ranking that placed the product; a shopper prefers the ranking
 * their clicks credited more. The sign test asks whether the shoppers who prefer one ranking outnumber those who
 * prefer the other by more than chance (ties tell nothing and are left out).
 */
function interleavingOf(experiment: Experiment, c: Credits): InterleavingResult {
  const pValue = signTest(c.preferA, c.preferB);
  const significant = pValue !== null && pValue < ALPHA;
  return {
    credits: { A: c.A, B: c.B },
    shoppers: { preferA: c.preferA, preferB: c.preferB, ties: c.ties },
    pValue,
    significant,
    winner: significant ? experiment.variants[c.preferA > c.preferB ? 0 : 1]!.name : null,
  };
}

type Flag = "clicked" | "carted" | "ordered";

/** What the results need of one variant's shoppers: their number, their searches, and how many did each thing. */
interface Tally {
  shoppers: number;
  searches: number;
  clicked: number;
  carted: number;
  ordered: number;
  /** Each shopper's revenue, by the currency it is reported in. */
  revenue: Map<string, number[]>;
}

function rate(tally: Tally, control: Tally | null, flag: Flag): RateResult {
  const [successes, trials] = [tally[flag], tally.shoppers];
  const vsControl = control ? compareProportions({ successes: control[flag], trials: control.shoppers }, { successes, trials }) : null;
  return { shoppers: successes, rate: trials ? successes / trials : 0, interval: wilsonInterval(successes, trials), vsControl };
}

/**
 * One pass over the shoppers' rows (there is one per shopper, so an experiment's results read hundreds of
 * thousands): only counts and revenues are kept, never the rows.
 */
export function resultsOf(experiment: Experiment, shoppers: Iterable<ShopperCounts>): ExperimentResults {
  const tallies: Tally[] = experiment.variants.map(() => ({
    shoppers: 0,
    searches: 0,
    clicked: 0,
    carted: 0,
    ordered: 0,
    revenue: new Map(),
  }));
  const excluded = { bots: 0, tooManyEvents: 0, emptySearches: 0 };
  const credits: Credits = { A: 0, B: 0, preferA: 0, preferB: 0, ties: 0 };
  for (const t of shoppers) {
    excluded.emptySearches += t.emptySearches;
    const why = exclusion(t);
    if (why === "bot") excluded.bots++;
    else if (why === "tooManyEvents") excluded.tooManyEvents++;
    const tally = why ? undefined : tallies[t.variant];
    if (!tally) continue;
    if (t.creditsA + t.creditsB > 0) {
      credits.A += t.creditsA;
      credits.B += t.creditsB;
      if (t.creditsA > t.creditsB) credits.preferA++;
      else if (t.creditsB > t.creditsA) credits.preferB++;
      else credits.ties++;
    }
    tally.shoppers++;
    tally.searches += t.searches;
    if (t.clicked) tally.clicked++;
    if (t.carted) tally.carted++;
    if (t.ordered) tally.ordered++;
    const currency = t.currency ?? UNKNOWN_CURRENCY;
    const revenues = tally.revenue.get(currency);
    if (revenues) revenues.push(t.revenue);
    else tally.revenue.set(currency, [t.revenue]);
  }
  const currencies = [...new Set(tallies.flatMap((t) => [...t.revenue.keys()]))].sort();
  const caps = Object.fromEntries(currencies.map((c) => [c, revenueCap(tallies.flatMap((t) => t.revenue.get(c) ?? []))]));
  const revenues = (tally: Tally, currency: string) => cappedMoments(tally.revenue.get(currency) ?? [], caps[currency]!);
  const control = tallies[0]!;
  const variants = experiment.variants.map((v, i): VariantResult => {
    const tally = tallies[i]!;
    const against = i === 0 ? null : control;
    return {
      name: v.name,
      share: v.share,
      control: i === 0,
      shoppers: tally.shoppers,
      searches: tally.searches,
      clickThrough: rate(tally, against, "clicked"),
      addToCart: rate(tally, against, "carted"),
      conversion: rate(tally, against, "ordered"),
      revenue: Object.fromEntries(
        currencies.map((c) => {
          const m = revenues(tally, c);
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
    interleaving: mode === "interleaving" ? interleavingOf(experiment, credits) : null,
  };
}
