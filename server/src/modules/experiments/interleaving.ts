import { createHash } from "node:crypto";
import type { InterleavingTeam } from "@storefront-search/contract";

/*
 * Team-draft interleaving (Radlinski, Kurup and Joachims, 2008): two rankings take turns, like captains picking
 * teams, each adding its best product not yet in the list; the ranking with fewer picks goes next, and a coin
 * decides who goes first in each round. A click then credits the ranking that placed the product, and over many
 * shoppers the ranking that earns more credits is the better one. Both rankings are judged on the same shoppers
 * at the same moment, which is why it needs far fewer of them than an A/B test.
 */

export interface Drafted {
  id: string;
  team: InterleavingTeam;
}

/** The interleaved list of at most `limit` products; `coin(round)` true lets A pick first in that round. */
export function teamDraft(a: readonly string[], b: readonly string[], coin: (round: number) => boolean, limit: number): Drafted[] {
  const out: Drafted[] = [];
  const taken = new Set<string>();
  const next = { A: 0, B: 0 };
  const picks = { A: 0, B: 0 };
  const lists = { A: a, B: b };
  const left = (team: InterleavingTeam) => {
    while (next[team] < lists[team].length && taken.has(lists[team][next[team]]!)) next[team]++;
    return next[team] < lists[team].length;
  };
  const pick = (team: InterleavingTeam) => {
    const id = lists[team][next[team]]!;
    taken.add(id);
    picks[team]++;
    out.push({ id, team });
  };
  for (let round = 0; out.length < limit; round++) {
    const [hasA, hasB] = [left("A"), left("B")];
    if (!hasA && !hasB) break;
    const aFirst = picks.A < picks.B || (picks.A === picks.B && coin(round));
    // A ranking that has run out leaves the rest of the list to the other.
    const team: InterleavingTeam = hasA && (aFirst || !hasB) ? "A" : "B";
    pick(team);
  }
  return out;
}

/**
 * The draft's coin for one shopper and one search: the same shopper searching the same words sees the same list
 * (on every replica), while different shoppers and searches get independent coins.
 */
export function draftCoin(experimentId: string, shopper: string, search: string): (round: number) => boolean {
  const seed = createHash("sha256").update(experimentId).update("\u0000").update(shopper).update("\u0000").update(search).digest();
  return (round) => {
    const bit = round % (seed.length * 8);
    return ((seed[bit >> 3]! >> (bit & 7)) & 1) === 1;
  };
}
