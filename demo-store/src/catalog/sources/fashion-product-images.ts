/*
 * styles.csv ("Fashion Product Images"): real names, gender, category, colour, season, year and usage.
 * No brand column, prices, sizes or descriptions: brand comes from the name, the rest is synthetic.
 */

import { audienceFromColumn } from "../audience.ts";
import type { BrandLexicon } from "../brands.ts";
import { audienceWordIndex } from "../brands.ts";
import { articleProfile, hierarchy } from "../categories.ts";
import { handle } from "../collections.ts";
import { canonicalColor, findColorPhrase, MULTI_HEXES, colorHex } from "../colors.ts";
import { descriptorsIn, descriptorTags, fitLines, materialsIn } from "../descriptors.ts";
import { type DraftColor, type DraftProduct, type RowKey, SkipRow } from "../draft.ts";
import { seededRandom } from "../seeded-random.ts";
import { cleanLabel, slugify } from "../text.ts";

export const STYLES_FILE = "fashion-product-images/styles.csv";

const DAY_MS = 86_400_000;

/** Rows that are test fixtures or file names rather than products ("RTV_LoadTest", "..._Size_Chart.jpg"). */
function isPlaceholderName(name: string): boolean {
  return (
    // Not any "test": "Tantra Men Blood Test Purple T-shirt" is a real product.
    /^test\b|loadtest|dispname/i.test(name) ||
    /\.(?:jpe?g|png|gif)$/i.test(name) ||
    name === "productDisplayName" ||
    (!name.includes(" ") && name.includes("_"))
  );
}

/** Cheap first pass: validity, id and arrival time, so sampling needs no full conversion. */
export function keyStylesRow(row: Record<string, string>): RowKey {
  const rawId = (row.id ?? "").trim();
  if (!/^\d{1,12}$/.test(rawId)) throw new SkipRow("invalid id");
  const name = cleanLabel(row.productDisplayName ?? "");
  if (name === "") throw new SkipRow("empty name");
  if (isPlaceholderName(name)) throw new SkipRow("placeholder name");
  if (cleanLabel(row.masterCategory ?? "") === "" || cleanLabel(row.articleType ?? "") === "") {
    throw new SkipRow("missing category");
  }
  const id = `fpi-${rawId}`;
  // The year is real; the day within it is not (the data has only the year).
  const rng = seededRandom(id, "arrival");
  const year = yearOf(row);
  const arrivalYear = year ?? rng.int(2011, 2016);
  const arrivalDateTs = Date.UTC(arrivalYear, 0, 1) + rng.int(0, 364) * DAY_MS + rng.int(0, DAY_MS / 1000 - 1) * 1000;
  return { id, arrivalDateTs };
}

function yearOf(row: Record<string, string>): number | undefined {
  const text = (row.year ?? "").trim();
  return /^\d{4}$/.test(text) && +text >= 2000 && +text <= 2030 ? +text : undefined;
}

export function convertStylesRow(row: Record<string, string>, brands: BrandLexicon): DraftProduct {
  const { id, arrivalDateTs } = keyStylesRow(row);
  const name = cleanLabel(row.productDisplayName ?? "");
  const master = cleanLabel(row.masterCategory ?? "");
  const sub = cleanLabel(row.subCategory ?? "");
  const articleType = cleanLabel(row.articleType ?? "");
  const categories = hierarchy([master, sub, articleType]);
  const audience = audienceFromColumn(row.gender ?? "");
  const brand = brands.extractFromName(name)?.brand;
  const color = colorOf(name, cleanLabel(row.baseColour ?? ""));

  const season = cleanLabel(row.season ?? "");
  const usage = cleanLabel(row.usage ?? "");
  const year = yearOf(row);

  const collections: string[] = [];
  const tags: string[] = [];
  if (season !== "" && season !== "NA") {
    collections.push(handle(season));
    if (year !== undefined) collections.push(`${handle(season)}-${year}`);
    tags.push(`season:${handle(season)}`);
  }
  if (usage !== "" && usage !== "NA") {
    collections.push(handle(usage));
    tags.push(`usage:${handle(usage)}`);
  }
  if (year !== undefined) tags.push(`year:${year}`);

  const descriptors = descriptorsIn(name);
  const materials = materialsIn(name);
  tags.push(...descriptorTags(descriptors), ...materials.map((m) => `material:${slugify(m)}`));

  return {
    source: "fashion-product-images",
    id,
    name,
    brand,
    description: generatedDescription(articleType, audience.gender, row.gender ?? "", brand, color, usage, season, year),
    descriptionGenerated: true,
    features: [...descriptors.map((d) => d.label), ...materials],
    fitInformation: fitLines(descriptors),
    categories,
    articleType,
    profile: articleProfile(articleType, [master, sub]),
    ...audience,
    color,
    arrivalDateTs,
    arrivalSynthetic: true,
    collections,
    tags,
    syntheticReductions: true,
  };
}

/**
 * The colour label: the name's colour phrase when it agrees with baseColour ("Black & Grey" for base
 * Black gives a two-colour image), else baseColour alone.
 */
function colorOf(name: string, baseColour: string): DraftColor | undefined {
  const base = canonicalColor(baseColour);
  if (base === undefined) return undefined;
  const words = name.split(" ");
  const at = audienceWordIndex(words);
  const phrase = findColorPhrase(words.slice(at + 1).join(" "));
  if (phrase?.colors.includes(base)) {
    return { label: phrase.label, colors: phrase.colors, hexes: phrase.hexes };
  }
  const hexes = base === "Multi" ? [...MULTI_HEXES] : [colorHex(base)!];
  return { label: baseColour, colors: [base], hexes };
}

function generatedDescription(
  articleType: string,
  gender: string | undefined,
  genderColumn: string,
  brand: string | undefined,
  color: DraftColor | undefined,
  usage: string,
  season: string,
  year: number | undefined,
): string {
  const who = /^(?:boys|girls)$/i.test(genderColumn)
    ? genderColumn.toLowerCase()
    : gender === "Unisex"
      ? "everyone"
      : (gender ?? "everyone").toLowerCase();
  let s = `${articleType} for ${who}`;
  if (brand) s += ` by ${brand}`;
  if (color) s += `, in ${color.label.toLowerCase()}`;
  s += ".";
  const when = [season !== "NA" ? season : "", year ?? ""].filter((x) => x !== "").join(" ");
  if (usage !== "" && usage !== "NA") s += ` ${usage} wear${when ? ` from the ${when} season` : ""}.`;
  else if (when) s += ` From the ${when} season.`;
  return s;
}
