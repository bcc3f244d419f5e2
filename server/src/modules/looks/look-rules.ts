import { NEVER_SPORTS, type Kind } from "./look-slots.ts";

/*
 * The compatibility rules of a look, as data: which seasons and which occasions go together. A catalog states
 * them as tags (`season:summer`, `usage:casual` or `occasion:party`); a product that states none fits any
 * (a kind nobody wears for sport, look-slots.ts NEVER_SPORTS, any but sports).
 * A score of 0 means "never together" (a summer top with a winter coat, sports shoes with a formal suit).
 */

export const SEASONS = ["spring", "summer", "fall", "winter"] as const;
const SEASON_ALIASES: Readonly<Record<string, (typeof SEASONS)[number]>> = { autumn: "fall" };

/** Per pair of seasons: the same 1; neighbours (and spring with fall, both in between) 0.6; summer with winter never. */
const SEASON_FIT: readonly (readonly number[])[] = [
  /*           spring summer fall winter */
  /* spring */ [1, 0.6, 0.6, 0.6],
  /* summer */ [0.6, 1, 0.6, 0],
  /* fall   */ [0.6, 0.6, 1, 0.6],
  /* winter */ [0.6, 0, 0.6, 1],
];

export const OCCASIONS = ["casual", "smart", "formal", "party", "ethnic", "sports"] as const;
/** Every occasion but sports, as a mask: what a piece of a kind nobody wears for sport fits when it states none. */
export const NOT_SPORTS = ((1 << OCCASIONS.length) - 1) & ~(1 << OCCASIONS.indexOf("sports"));

/** Catalog usage words, folded onto the occasions above. */
const OCCASION_OF: Readonly<Record<string, (typeof OCCASIONS)[number]>> = {
  casual: "casual",
  travel: "casual",
  beach: "casual",
  lounge: "casual",
  home: "casual",
  "smart-casual": "smart",
  workwear: "smart",
  formal: "formal",
  party: "party",
  ethnic: "ethnic",
  wedding: "ethnic",
  festive: "ethnic",
  religious: "ethnic",
  sports: "sports",
  sport: "sports",
};

const OCCASION_FIT: readonly (readonly number[])[] = [
  /*           casual smart formal party ethnic sports */
  /* casual */ [1, 0.7, 0.4, 0.6, 0.5, 0.6],
  /* smart  */ [0.7, 1, 0.8, 0.7, 0.4, 0],
  /* formal */ [0.4, 0.8, 1, 0.6, 0.4, 0],
  /* party  */ [0.6, 0.7, 0.6, 1, 0.7, 0],
  /* ethnic */ [0.5, 0.4, 0.4, 0.7, 1, 0],
  /* sports */ [0.6, 0, 0, 0, 0, 1],
];

/** Fit when either side states nothing: no reason against, none for. */
export const UNSTATED_FIT = 0.7;

/**
 * The seasons and occasions a product's tags state, as bit masks (bit i: SEASONS[i] / OCCASIONS[i]); with its
 * kind, one nobody wears for sport (NEVER_SPORTS) that states no occasion is any but sports.
 */
export function tagMasks(tags: readonly string[] | undefined, kind?: Kind): { seasons: number; occasions: number } {
  let seasons = 0;
  let occasions = 0;
  for (const tag of tags ?? []) {
    const colon = tag.indexOf(":");
    if (colon < 0) continue;
    const prefix = tag.slice(0, colon);
    const value = tag.slice(colon + 1).toLowerCase();
    if (prefix === "season") {
      const i = SEASONS.indexOf((SEASON_ALIASES[value] ?? value) as (typeof SEASONS)[number]);
      if (i >= 0) seasons |= 1 << i;
    } else if (prefix === "usage" || prefix === "occasion") {
      const occasion = OCCASION_OF[value];
      if (occasion) occasions |= 1 << OCCASIONS.indexOf(occasion);
    }
  }
  if (occasions === 0 && kind && NEVER_SPORTS.has(kind)) occasions = NOT_SPORTS;
  return { seasons, occasions };
}

/** The best fit of any stated value of one with any of the other; UNSTATED_FIT when either states none. */
function maskFit(a: number, b: number, table: readonly (readonly number[])[]): number {
  if (a === 0 || b === 0) return UNSTATED_FIT;
  let best = 0;
  for (let i = 0; i < table.length; i++) {
    if (!(a & (1 << i))) continue;
    for (let j = 0; j < table.length; j++) if (b & (1 << j) && table[i]![j]! > best) best = table[i]![j]!;
  }
  return best;
}

export const seasonFit = (a: number, b: number) => maskFit(a, b, SEASON_FIT);
/** A kind's "anything but sports" (NOT_SPORTS) says as little as nothing stated, but never goes with sports. */
export const occasionFit = (a: number, b: number) =>
  a === NOT_SPORTS || b === NOT_SPORTS ? (occasionsAgree(a, b) ? UNSTATED_FIT : 0) : maskFit(a, b, OCCASION_FIT);

/**
 * Whether two occasion masks agree: they share an occasion, or either states none. A look's stated occasions
 * must all agree (a party dress, sports shoes and a rain jacket do not), so it keeps the ones they share.
 */
export const occasionsAgree = (a: number, b: number): boolean => a === 0 || b === 0 || (a & b) !== 0;

/** Names of the values of a mask, for explanations. */
export const seasonNames = (mask: number) => SEASONS.filter((_, i) => mask & (1 << i));
export const occasionNames = (mask: number): string[] =>
  mask === NOT_SPORTS ? ["any but sports"] : OCCASIONS.filter((_, i) => mask & (1 << i));

/** Gender codes: what a look's pieces must agree on. Unisex and unstated fit any look. */
export const ANY_GENDER = 0;

/** Whether two gender codes, or two age group ids, may share a look: equal, or either unstated (0). */
export const agree = (a: number, b: number): boolean => a === 0 || b === 0 || a === b;

export function genderCode(gender: string | undefined): number {
  const g = gender?.trim().toLowerCase();
  if (g === "men" || g === "male" || g === "boys") return 1;
  if (g === "women" || g === "female" || g === "girls") return 2;
  return ANY_GENDER;
}
