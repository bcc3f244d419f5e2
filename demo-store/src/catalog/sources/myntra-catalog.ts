/*
 * myntra_products_catalog.csv: real names, brands, prices (INR), descriptions and primary colour.
 * No category column: the article type is read from the name. Arrival dates are synthetic.
 */

import { audienceFromColumn } from "../audience.ts";
import { audienceWordIndex, type BrandLexicon } from "../brands.ts";
import { articleProfile, categoryPathOf, classifyArticleType } from "../categories.ts";
import { usageFromName } from "../collections.ts";
import { canonicalColor, colorHex, findColorPhrase, MULTI_HEXES } from "../colors.ts";
import { descriptionPhrases, descriptorsIn, descriptorTags, fitLines, materialsIn, restoreLineBreaks } from "../descriptors.ts";
import { type DraftColor, type DraftProduct, type RowKey, SkipRow } from "../draft.ts";
import { seededRandom } from "../seeded-random.ts";
import { cleanLabel, cleanText, slugify } from "../text.ts";

export const MYNTRA_FILE = "myntra-catalog/myntra_products_catalog.csv";

/** The catalog dates from about 2019-2020; arrival days are spread over those two years. */
const ARRIVAL_FROM = Date.UTC(2019, 0, 1);
const ARRIVAL_SPAN_DAYS = 730;
const DAY_MS = 86_400_000;

/** Cheap first pass: validity, id and arrival time, so sampling needs no full conversion. */
export function keyMyntraRow(row: Record<string, string>): RowKey {
  const rawId = (row.ProductID ?? "").trim();
  if (!/^\d{1,12}$/.test(rawId)) throw new SkipRow("invalid id");
  if (cleanLabel(row.ProductName ?? "") === "") throw new SkipRow("empty name");
  const id = `myn-${rawId}`;
  const rng = seededRandom(id, "arrival");
  const arrivalDateTs = ARRIVAL_FROM + rng.int(0, ARRIVAL_SPAN_DAYS - 1) * DAY_MS + rng.int(0, 86_399) * 1000;
  return { id, arrivalDateTs };
}

export function convertMyntraRow(row: Record<string, string>, brands: BrandLexicon): DraftProduct {
  const { id, arrivalDateTs } = keyMyntraRow(row);
  const name = cleanLabel(row.ProductName ?? "");

  const brandColumn = cleanLabel(row.ProductBrand ?? "");
  const brand = brandColumn !== "" ? brands.canonical(brandColumn) : brands.extractFromName(name)?.brand;
  const audience = audienceFromColumn(row.Gender ?? "");

  const priceValue = Number((row["Price (INR)"] ?? "").trim());
  const price = Number.isFinite(priceValue) && priceValue > 0 ? { price: Math.round(priceValue) } : undefined;

  const description = restoreLineBreaks(cleanText(row.Description ?? ""));
  const firstLine = description.split("\n")[0] ?? "";
  const articleType = classifyArticleType(name) ?? classifyArticleType(firstLine);
  const path = articleType ? categoryPathOf(articleType) : undefined;

  const descriptors = descriptorsIn(`${name}\n${firstLine}`);
  const materials = materialsIn(`${name}\n${description}`);
  const usages = usageFromName(name, articleType);
  const tags = [...usages.map((u) => `usage:${u}`), ...descriptorTags(descriptors), ...materials.map((m) => `material:${slugify(m)}`)];
  const features = dedupe([...descriptors.map((d) => d.label), ...materials, ...descriptionPhrases(description)]);

  return {
    source: "myntra-catalog",
    id,
    name,
    brand: brand || undefined,
    description: description || undefined,
    descriptionGenerated: false,
    features,
    fitInformation: dedupe([
      ...fitLines(descriptors),
      ...[...description.matchAll(/^(?:size & fit|fit)\s*:\s*(.{3,120})$/gim)].map((m) => m[1]!.trim()),
    ]),
    categories: path,
    articleType,
    profile: articleProfile(articleType ?? "", path ?? []),
    ...audience,
    color: colorOf(name, brandColumn, cleanLabel(row.PrimaryColor ?? ""), description),
    price,
    arrivalDateTs,
    arrivalSynthetic: true,
    collections: usages,
    tags,
    syntheticReductions: true,
  };
}

/**
 * Myntra names put the colour right after the gender word ("Parx Men Brown & Off-White Slim Fit ...");
 * that phrase is more precise than PrimaryColor (which says "White" for that shirt), so it wins.
 */
function colorOf(name: string, brand: string, primary: string, description: string): DraftColor | undefined {
  const words = name.split(" ");
  const at = audienceWordIndex(words);
  const afterBrand = brand !== "" && name.toLowerCase().startsWith(brand.toLowerCase()) ? brand.split(" ").length : 0;
  const phrase = findColorPhrase(words.slice(at >= 0 ? at + 1 : afterBrand).join(" "), { anchored: true });
  if (phrase) return { label: phrase.label, colors: phrase.colors, hexes: phrase.hexes };
  const base = canonicalColor(primary);
  if (base !== undefined) {
    return { label: primary, colors: [base], hexes: base === "Multi" ? [...MULTI_HEXES] : [colorHex(base)!] };
  }
  return describedColor(description);
}

/**
 * Colour stated in a description: at its start ("Navy sweatshirt with ..."), as "Colour: Blue and white",
 * after "Pack of 3" ("Pack of 3 White, Black & Blue boxers") or after "in" ("bras in purple and white").
 */
function describedColor(description: string): DraftColor | undefined {
  const starts = [description.split("\n")[0] ?? ""];
  for (const m of description.matchAll(/\bcolou?r\s*:\s*([^\n]+)/gi)) starts.push(m[1]!);
  for (const m of description.matchAll(/\bpack of (?:\d+|two|three|four|five|six) ([^\n]+)/gi)) starts.push(m[1]!);
  for (const m of description.matchAll(/\bin ([a-z][^\n]*)/gi)) starts.push(m[1]!);
  for (const text of starts) {
    const p = findColorPhrase(text, { anchored: true });
    if (p) return { label: p.label.charAt(0).toUpperCase() + p.label.slice(1), colors: p.colors, hexes: p.hexes };
  }
  return undefined;
}

function dedupe(items: string[]): string[] {
  const seen = new Set<string>();
  return items.filter((s) => {
    const k = s.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
