/* Collection handles and the tags that mirror them, from season/usage/occasion words in the data. */

import { slugify } from "./text.ts";

/** Lowercase-hyphenated collection handle ("Smart Casual" -> "smart-casual"). */
export function handle(s: string): string {
  return slugify(s);
}

// Flipkart occasions are free text; fold their variants onto the usage handles styles.csv uses.
const OCCASION_HANDLES: Readonly<Record<string, readonly string[]>> = {
  "party-wedding": ["party", "wedding"],
  "wedding-and-engagement": ["wedding"],
  "lounge-wear": ["lounge"],
  "beach-wear": ["beach"],
  work: ["workwear"],
  everyday: ["casual"],
  lifestyle: ["casual"],
  sports: ["sports"],
  sport: ["sports"],
};

/** Usage handles for an occasion list such as "Casual, Party-Wedding, Formal". */
export function occasionHandles(occasions: string): string[] {
  const out = new Set<string>();
  for (const part of occasions.split(/[,/]/)) {
    const h = handle(part);
    if (h === "" || h === "na") continue;
    for (const mapped of OCCASION_HANDLES[h] ?? [h]) out.add(mapped);
  }
  return [...out];
}

const ETHNIC_TYPES = new Set([
  "Kurtas",
  "Kurtis",
  "Kurta Sets",
  "Sarees",
  "Dupatta",
  "Lehenga Choli",
  "Salwar",
  "Churidar",
  "Patiala",
  "Nehru Jackets",
  "Dress Material",
]);

/** Usage handles implied by a product name and article type (Myntra has no usage column). */
export function usageFromName(name: string, articleType: string | undefined): string[] {
  const n = name.toLowerCase();
  const out: string[] = [];
  if (/\bsemi-?formal\b/.test(n)) out.push("smart-casual");
  else if (/\bformal\b/.test(n)) out.push("formal");
  if (/\bcasual\b/.test(n)) out.push("casual");
  if (/\bparty\b/.test(n)) out.push("party");
  if (/\b(?:running|training|sports?|gym|yoga|football|cricket|tennis|basketball|workout)\b/.test(n)) out.push("sports");
  if (/\bethnic\b/.test(n) || (articleType !== undefined && ETHNIC_TYPES.has(articleType))) out.push("ethnic");
  return out;
}
