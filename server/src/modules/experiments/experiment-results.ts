import type { ExperimentResults, RateResult, VariantResult } from "@storefront-search/contract";
import { UNKNOWN_CURRENCY } from "../analytics/event-facts.ts";
import type { Experiment } from "./experiment-schema.ts";
import { exclusion } from "./experiment-tally.ts";
import type { ShopperCounts } from "./storage/experiments-repository.ts";
import { ALPHA, cappedMoments, compareProportions, meanInterval, revenueCap, welchTest, wilsonInterval } from "./statistics.ts";

/* An experiment's results from its shoppers' counters: per variant the counts, each rate and mean with its interval, and the difference to the control. */

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
  };
}
