import { readFileSync } from "node:fs";
import { join } from "node:path";
import { seededRandom, type Rng } from "../../demo-store/src/catalog/seeded-random.ts";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { labelsOf, words, type Labels } from "./labels.ts";

/*
 * The judged query set, generated at run time (it takes well under a second, so no file to keep in step with the
 * catalog) from the catalog's labels alone, deterministically (seeded), never from any system's results.
 *
 * A query states an intent: one article type (or a group of types, "shoes") and at most one more attribute of
 * gender, colour, brand or usage. A product's grade for it (0–3):
 *   3  right type and every stated attribute;
 *   2  right type and all stated attributes but one (only possible with two or more besides the type);
 *   1  right type only;
 *   0  anything else, and every product whose type we cannot tell (no `type:` tag and no category level naming
 *      one of TYPES below): these are outside every query's candidate pool.
 * Attribute matches: gender = the product's gender or Unisex, and not a kids' product; colour = every word of the
 * asked colour is a word of one of the product's colours ("blue" matches navy-blue); brand = equal ignoring case;
 * usage = the product's `usage:` tag.
 */

export const FAMILIES = [
  "type",
  "plural/singular",
  "gender + type",
  "colour + type",
  "brand + type",
  "usage + type",
  "purpose",
  "typo",
] as const;
export type Family = (typeof FAMILIES)[number];

export interface Intent {
  types: readonly string[];
  gender?: "Men" | "Women";
  /** Colour in `words` form, e.g. "navy blue". */
  colour?: string;
  /** Lower case. */
  brand?: string;
  usage?: string;
}

export interface JudgedQuery {
  family: Family;
  query: string;
  intent: Intent;
  /** Typo family: the correctly spelled query it was made from (also in the set). */
  correct?: string;
  /** Product id -> grade, for grades above 0. */
  grades: ReadonlyMap<string, number>;
  /**
   * Products of the asked type or of a kind of it named with it as the last word ("sports-sandals" are sandals,
   * "nehru-jackets" jackets): what a result holding only the asked type may hold. The match-set precision reads it;
   * grades leave these kinds at 0, as before.
   */
  ofType: ReadonlySet<string>;
}

/** Article types as shoppers name them (plural, singular when it differs), by the converter's type slug. */
export const TYPES: ReadonlyArray<{ slug: string; plural: string; singular?: string }> = [
  { slug: "tshirts", plural: "t-shirts", singular: "t-shirt" },
  { slug: "shirts", plural: "shirts", singular: "shirt" },
  { slug: "tops", plural: "tops", singular: "top" },
  { slug: "casual-shoes", plural: "casual shoes", singular: "casual shoe" },
  { slug: "kurtas", plural: "kurtas", singular: "kurta" },
  { slug: "watches", plural: "watches", singular: "watch" },
  { slug: "jeans", plural: "jeans" },
  { slug: "sports-shoes", plural: "sports shoes", singular: "sports shoe" },
  { slug: "handbags", plural: "handbags", singular: "handbag" },
  { slug: "dresses", plural: "dresses", singular: "dress" },
  { slug: "trousers", plural: "trousers", singular: "trouser" },
  { slug: "heels", plural: "heels", singular: "heel" },
  { slug: "sweatshirts", plural: "sweatshirts", singular: "sweatshirt" },
  { slug: "jackets", plural: "jackets", singular: "jacket" },
  { slug: "bra", plural: "bras", singular: "bra" },
  { slug: "flats", plural: "flats" },
  { slug: "sunglasses", plural: "sunglasses" },
  { slug: "wallets", plural: "wallets", singular: "wallet" },
  { slug: "sandals", plural: "sandals", singular: "sandal" },
  { slug: "earrings", plural: "earrings", singular: "earring" },
  { slug: "briefs", plural: "briefs" },
  { slug: "sweaters", plural: "sweaters", singular: "sweater" },
  { slug: "flip-flops", plural: "flip flops", singular: "flip flop" },
  { slug: "backpacks", plural: "backpacks", singular: "backpack" },
  { slug: "perfume-and-body-mist", plural: "perfumes", singular: "perfume" },
  { slug: "kurta-sets", plural: "kurta sets", singular: "kurta set" },
  { slug: "sarees", plural: "sarees", singular: "saree" },
  { slug: "belts", plural: "belts", singular: "belt" },
  { slug: "shorts", plural: "shorts" },
  { slug: "formal-shoes", plural: "formal shoes", singular: "formal shoe" },
  { slug: "socks", plural: "socks" },
  { slug: "track-pants", plural: "track pants" },
  { slug: "lipstick", plural: "lipsticks", singular: "lipstick" },
  { slug: "ring", plural: "rings", singular: "ring" },
  { slug: "leggings", plural: "leggings" },
  { slug: "clutches", plural: "clutches", singular: "clutch" },
  { slug: "boots", plural: "boots" },
  { slug: "palazzos", plural: "palazzos", singular: "palazzo" },
  { slug: "blazers", plural: "blazers", singular: "blazer" },
  { slug: "caps", plural: "caps", singular: "cap" },
  { slug: "skirts", plural: "skirts", singular: "skirt" },
  { slug: "ties", plural: "ties", singular: "tie" },
  { slug: "kurtis", plural: "kurtis", singular: "kurti" },
  { slug: "deodorant", plural: "deodorants", singular: "deodorant" },
  { slug: "cufflinks", plural: "cufflinks" },
  { slug: "scarves", plural: "scarves", singular: "scarf" },
  { slug: "curtains", plural: "curtains", singular: "curtain" },
  { slug: "jumpsuit", plural: "jumpsuits", singular: "jumpsuit" },
  { slug: "tunics", plural: "tunics", singular: "tunic" },
  { slug: "capris", plural: "capris" },
];

/** Type groups a usage word commonly qualifies: "formal shoes" asks for any shoe worn formally. */
const GROUPS: ReadonlyArray<{ slugs: string[]; plural: string; singular: string }> = [
  { slugs: ["casual-shoes", "formal-shoes", "sports-shoes"], plural: "shoes", singular: "shoe" },
];

const COLOURS = [
  "black",
  "blue",
  "white",
  "navy blue",
  "red",
  "grey",
  "brown",
  "green",
  "pink",
  "gold",
  "yellow",
  "beige",
  "purple",
  "silver",
  "maroon",
  "orange",
  "olive",
];
const USAGES = ["casual", "formal", "sports", "party", "ethnic", "wedding"];
const GENDER_PHRASES: Record<"Men" | "Women", string[]> = {
  Men: ["men {t}", "men's {t}", "mens {t}", "{t} for men"],
  Women: ["women {t}", "women's {t}", "womens {t}", "ladies {t}", "{t} for women"],
};

/** Fewest products a combination needs in the catalog to become a query (else its ideal ranking is mostly zeros). */
const MIN_MATCHES = 10;
const MIN_BRAND_MATCHES = 8;
/** Queries per generated family, at most. */
const PER_FAMILY = { gender: 60, colour: 60, brand: 50, usage: 30, purpose: 30 } as const;
/** How shoppers name a purpose after the product ("sandals for sports", "dress for a party", "shirts for office wear"). */
const PURPOSE_PHRASES = ["{t} for {u}", "{t} for {u} wear", "{t} for a {u}", "{u} wear {t}"];

export interface JudgedSet {
  queries: JudgedQuery[];
  /** Unjudged products (no type we can tell); they are 0 for every query. */
  unjudged: number;
}

function gradeOf(l: Labels, intent: Intent): number {
  if (l.type === undefined || !intent.types.includes(l.type)) return 0;
  const checks: boolean[] = [];
  if (intent.gender) checks.push(!l.kids && (l.gender === intent.gender || l.gender === "Unisex"));
  if (intent.colour) {
    const asked = intent.colour.split(" ");
    checks.push(l.colours.some((c) => asked.every((w) => c.split("-").includes(w))));
  }
  if (intent.brand) checks.push(l.brand === intent.brand);
  if (intent.usage) checks.push(l.usages.includes(intent.usage));
  const missed = checks.filter((ok) => !ok).length;
  if (missed === 0) return 3;
  return missed === 1 && checks.length >= 2 ? 2 : 1;
}

function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const QWERTY_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
function neighbourKey(ch: string, rng: Rng): string {
  for (const row of QWERTY_ROWS) {
    const at = row.indexOf(ch);
    if (at < 0) continue;
    const near = [row[at - 1], row[at + 1]].filter((c): c is string => c !== undefined);
    return rng.pick(near);
  }
  return ch;
}

/** One edit a hurried shopper makes (never on the first letter): drop, double, swap or mistype a letter. */
function typoOf(word: string, rng: Rng): string {
  const at = rng.int(1, word.length - 1);
  switch (rng.int(0, 3)) {
    case 0:
      return word.slice(0, at) + word.slice(at + 1);
    case 1:
      return word.slice(0, at + 1) + word.slice(at);
    case 2:
      return at + 1 < word.length && word[at] !== word[at + 1]
        ? word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2)
        : word.slice(0, at) + word.slice(at + 1);
    default:
      return word.slice(0, at) + neighbourKey(word[at]!, rng) + word.slice(at + 1);
  }
}

/** Builds the judged set over `products` (the same products every system indexes). */
export function buildJudgedSet(products: readonly Product[]): JudgedSet {
  const typeByPhrase = new Map<string, string>();
  for (const t of TYPES) for (const phrase of [t.plural, t.singular]) if (phrase) typeByPhrase.set(words(phrase), t.slug);
  const labelled = products.map((p) => ({ id: p.id, labels: labelsOf(p, typeByPhrase) }));
  const vocabulary = new Set<string>();
  for (const p of products) for (const w of words([p.name, p.brand ?? "", ...(p.categories ?? [])].join(" ")).split(" ")) vocabulary.add(w);

  // Only products of the asked types can grade above 0, so each query looks at those alone.
  const byType = new Map<string, Array<{ id: string; labels: Labels }>>();
  for (const entry of labelled)
    if (entry.labels.type !== undefined) byType.set(entry.labels.type, [...(byType.get(entry.labels.type) ?? []), entry]);
  const pool = (intent: Intent) => intent.types.flatMap((slug) => byType.get(slug) ?? []);
  const kindsOf = (slugs: readonly string[]) =>
    [...byType.keys()].filter((slug) => slugs.some((t) => slug === t || slug.endsWith(`-${t}`)));
  const judge = (family: Family, query: string, intent: Intent, correct?: string): JudgedQuery => {
    const grades = new Map<string, number>();
    for (const { id, labels } of pool(intent)) {
      const g = gradeOf(labels, intent);
      if (g > 0) grades.set(id, g);
    }
    const ofType = new Set(kindsOf(intent.types).flatMap((slug) => byType.get(slug)!.map((p) => p.id)));
    return { family, query, intent, grades, ofType, ...(correct === undefined ? {} : { correct }) };
  };
  const count = (intent: Intent) => pool(intent).filter(({ labels }) => gradeOf(labels, intent) === 3).length;
  const sample = <T>(candidates: T[], n: number, seed: string) => shuffled(candidates, seededRandom("eval", seed)).slice(0, n);

  const present = TYPES.filter((t) => count({ types: [t.slug] }) >= MIN_MATCHES);
  const queries: JudgedQuery[] = [];
  for (const t of present) queries.push(judge("type", t.plural, { types: [t.slug] }));
  for (const t of present) if (t.singular) queries.push(judge("plural/singular", t.singular, { types: [t.slug] }));

  const form = (t: { plural: string; singular?: string }, rng: Rng) => (t.singular && rng.chance(0.5) ? t.singular : t.plural);

  const genderCandidates = present.flatMap((t) => (["Men", "Women"] as const).map((gender) => ({ t, gender })));
  const gender = genderCandidates.filter(({ t, gender }) => count({ types: [t.slug], gender }) >= MIN_MATCHES);
  for (const { t, gender: g } of sample(gender, PER_FAMILY.gender, "gender")) {
    const rng = seededRandom("eval", "gender", t.slug, g);
    queries.push(judge("gender + type", rng.pick(GENDER_PHRASES[g]).replace("{t}", form(t, rng)), { types: [t.slug], gender: g }));
  }

  const colour = present
    .flatMap((t) => COLOURS.map((c) => ({ t, c })))
    .filter(({ t, c }) => count({ types: [t.slug], colour: c }) >= MIN_MATCHES);
  for (const { t, c } of sample(colour, PER_FAMILY.colour, "colour")) {
    const rng = seededRandom("eval", "colour", t.slug, c);
    queries.push(judge("colour + type", `${c} ${form(t, rng)}`, { types: [t.slug], colour: c }));
  }

  const brandCounts = new Map<string, number>();
  for (const { labels } of labelled)
    if (labels.brand && labels.type)
      brandCounts.set(`${labels.brand}\u0000${labels.type}`, (brandCounts.get(`${labels.brand}\u0000${labels.type}`) ?? 0) + 1);
  const presentBySlug = new Map(present.map((t) => [t.slug, t]));
  const brand = [...brandCounts]
    .filter(([key, n]) => n >= MIN_BRAND_MATCHES && presentBySlug.has(key.split("\u0000")[1]!))
    .map(([key]) => key.split("\u0000") as [string, string])
    .sort(([a1, a2], [b1, b2]) => (a1 + a2 < b1 + b2 ? -1 : 1));
  for (const [b, slug] of sample(brand, PER_FAMILY.brand, "brand")) {
    const t = presentBySlug.get(slug)!;
    const rng = seededRandom("eval", "brand", b, slug);
    queries.push(judge("brand + type", `${b} ${form(t, rng)}`, { types: [slug], brand: b }));
  }

  const targets = [...present.map((t) => ({ ...t, slugs: [t.slug] })), ...GROUPS];
  const usage = targets
    .flatMap((t) => USAGES.map((u) => ({ t, u })))
    .filter(({ t, u }) => {
      // "casual shoes" is an article type of its own; its usage word would be asked twice.
      if (
        words(t.plural)
          .split(" ")
          .some((w) => USAGES.includes(w))
      )
        return false;
      const matching = count({ types: t.slugs, usage: u });
      // A usage nearly every product of the type has ("ethnic kurtas") asks nothing more than the type.
      return matching >= MIN_MATCHES && matching < 0.9 * count({ types: t.slugs });
    });
  for (const { t, u } of sample(usage, PER_FAMILY.usage, "usage")) {
    const rng = seededRandom("eval", "usage", t.plural, u);
    queries.push(judge("usage + type", `${u} ${form(t, rng)}`, { types: t.slugs, usage: u }));
  }

  // The same intents as "usage + type", phrased as a purpose and sampled apart: a family no tuning has seen.
  for (const { t, u } of sample(usage, PER_FAMILY.purpose, "purpose")) {
    const rng = seededRandom("eval", "purpose", t.plural, u);
    queries.push(judge("purpose", rng.pick(PURPOSE_PHRASES).replace("{t}", form(t, rng)).replace("{u}", u), { types: t.slugs, usage: u }));
  }

  for (const t of present) {
    const rng = seededRandom("eval", "typo", t.slug);
    const correct = form(t, rng);
    const longest = words(correct)
      .split(" ")
      .reduce((a, b) => (b.length > a.length ? b : a));
    if (longest.length < 4) continue;
    let typo: string | undefined;
    for (let attempt = 0; attempt < 10 && typo === undefined; attempt++) {
      const edited = typoOf(longest, rng);
      if (edited !== longest && !vocabulary.has(edited)) typo = edited;
    }
    if (typo === undefined) continue;
    queries.push(judge("typo", correct.replace(longest, typo), { types: [t.slug] }, correct));
  }
  return { queries, unjudged: labelled.filter(({ labels }) => labels.type === undefined).length };
}

/** The 713 real shopper queries of the demo store's query log (Algolia query suggestions export). */
export function realQueries(dataDir: string): string[] {
  return realQueryLog(dataDir).map((r) => r.query);
}

/** The log's queries with the categories each found in the store it came from ("Men > Clothing", "Accessories > Women"). */
export function realQueryLog(dataDir: string): { query: string; categories: string[] }[] {
  const rows = JSON.parse(readFileSync(join(dataDir, "query-suggestions", "fashion-query-suggestions.json"), "utf8")) as Array<{
    query: string;
    "hierarchical_categories.lvl1"?: string[];
  }>;
  return rows.map((r) => ({ query: r.query, categories: r["hierarchical_categories.lvl1"] ?? [] }));
}

/** Department families of the log's categories, as the demo catalog's category paths and types say them. */
const FAMILY_OF: Record<string, (path: string) => boolean> = {
  clothing: (path) => /^(apparel|clothing)\b/.test(path),
  shoes: (path) => /^footwear\b/.test(path),
  bags: (path) => /\bbags?\b|handbag|clutch|backpack|wallet/.test(path),
  accessories: (path) =>
    /^(accessories|jewellery|watches)\b/.test(path) || /\bbags?\b|handbag|clutch|backpack|wallet|sunglass|eyewear/.test(path),
};

/**
 * Whether a product is of a category the log says a query found (its gender and department): how a recovered answer
 * to a query the catalog cannot match is judged. "Women > Bags" is a women's (or unisex) bag; "Accessories > Men" a
 * men's accessory. A rule of the log's own record, never of a system's results.
 */
export function ofLoggedCategory(p: Product, logged: readonly string[]): boolean {
  const path = (p.categories ?? []).join(" > ").toLowerCase();
  return logged.some((category) => {
    const [a, b] = category.toLowerCase().split(" > ");
    const [gender, family] = a === "accessories" ? [b, "accessories"] : [a, b];
    const genderOk = p.gender === "Unisex" || p.gender?.toLowerCase() === gender;
    return genderOk && (FAMILY_OF[family ?? ""]?.(path) ?? false);
  });
}
