/*
 * flipkart-sample/product.csv: real prices (retail and discounted), ratings, category trees, descriptions
 * and specifications, all lowercased by the exporter. Image URLs point to the web and are ignored.
 */

import { audienceFromText } from "../audience.ts";
import { brandKey, type BrandLexicon } from "../brands.ts";
import { articleProfile, categoryPathOf, classifyArticleType } from "../categories.ts";
import { occasionHandles } from "../collections.ts";
import { findColorPhrase } from "../colors.ts";
import { descriptorsIn, descriptorTags, materialsIn } from "../descriptors.ts";
import { type DraftColor, type DraftProduct, type RowKey, SkipRow } from "../draft.ts";
import { parsePyLiteral } from "../py-literal.ts";
import { cleanLabel, cleanText, slugify, titleCase } from "../text.ts";

export const FLIPKART_FILE = "flipkart-sample/product.csv";

interface Spec {
  key?: string;
  value: string;
}

/** Specification keys that identify a unit rather than describe it, or are mapped elsewhere. */
const NON_FEATURE_KEYS = new Set([
  "style code",
  "model number",
  "model id",
  "model name",
  "number of contents in sales package",
  "sales package",
  "pack of",
  "brand",
  "ideal for",
  "color",
  "color code",
  "series",
]);

/** Cheap first pass: validity, id and arrival time, so sampling needs no full conversion. */
export function keyFlipkartRow(row: Record<string, string>): RowKey {
  const pid = cleanLabel(row.pid ?? "");
  const uniq = cleanLabel(row.uniq_id ?? "");
  const rawId = /^[A-Za-z0-9]{4,64}$/.test(pid) ? pid : /^[A-Za-z0-9]{4,64}$/.test(uniq) ? uniq : "";
  if (rawId === "") throw new SkipRow("invalid id");
  if (cleanLabel(row.product_name ?? "") === "") throw new SkipRow("empty name");
  const crawled = parseCrawlTimestamp(row.crawl_timestamp ?? "");
  if (crawled === undefined) throw new SkipRow("invalid crawl_timestamp");
  return { id: `fk-${rawId}`, arrivalDateTs: crawled };
}

export function convertFlipkartRow(row: Record<string, string>, brands: BrandLexicon): DraftProduct {
  const { id, arrivalDateTs } = keyFlipkartRow(row);
  const lowerName = cleanLabel(row.product_name ?? "");

  const specs = parseSpecs(row.product_specifications ?? "");
  const spec = (key: string) => specs.find((s) => s.key?.toLowerCase() === key)?.value;
  const tree = parseTree(row.product_category_tree ?? "");
  const { levels, brandFromTree } = splitTree(tree, lowerName);

  const brandColumn = cleanLabel(row.brand ?? "");
  const brandRaw = brandColumn || brandFromTree || "";
  const brand = brandRaw !== "" ? brands.canonical(brandRaw) : undefined;
  const name = displayName(lowerName, brand);

  const articleType =
    classifyArticleType(lowerName) ??
    [...levels]
      .reverse()
      .map(classifyArticleType)
      .find((t) => t !== undefined);
  const categories = levels.length > 0 ? levels.map(titleCase) : articleType ? categoryPathOf(articleType) : undefined;
  const typePath = articleType ? categoryPathOf(articleType) : undefined;

  const idealFor = spec("ideal for");
  const audience = audienceFromText(idealFor ?? "").gender
    ? audienceFromText(idealFor ?? "")
    : audienceFromText(`${tree.join(" ")} ${lowerName}`);

  const retail = priceNumber(row.retail_price);
  const discounted = priceNumber(row.discounted_price);
  const current = discounted ?? retail;
  const price =
    current === undefined ? undefined : { price: current, initialPrice: retail !== undefined && retail > current ? retail : undefined };

  const ratingValue = Number((row.product_rating ?? "").trim());
  const overallValue = Number((row.overall_rating ?? "").trim());
  const rating = ratingValue > 0 && ratingValue <= 5 ? ratingValue : overallValue > 0 && overallValue <= 5 ? overallValue : undefined;

  const description = cleanText(row.description ?? "");
  const occasion = spec("occasion");
  const collections = occasion ? occasionHandles(occasion) : [];
  const materialText = [spec("fabric"), spec("material"), spec("outer material"), spec("base material")]
    .filter((v): v is string => v !== undefined)
    .join(" ");
  const materials = materialsIn(materialText || lowerName);
  const descriptors = descriptorsIn(
    [lowerName, spec("pattern"), spec("sleeve"), spec("neck"), spec("fit") ? `${spec("fit")} fit` : ""].join(" \n"),
  );
  const tags = [...collections.map((c) => `usage:${c}`), ...descriptorTags(descriptors), ...materials.map((m) => `material:${slugify(m)}`)];

  return {
    source: "flipkart-sample",
    id,
    name,
    brand,
    description: description || undefined,
    descriptionGenerated: false,
    features: specFeatures(specs),
    fitInformation: FIT_KEYS.flatMap((k) => {
      const v = spec(k.toLowerCase());
      return v && v.length <= 120 && !/^(?:na|no)$/i.test(v) ? [`${k}: ${v}`] : [];
    }),
    categories,
    articleType,
    profile: articleProfile(articleType ?? "", typePath ?? levels),
    ...audience,
    color: colorOf(spec, lowerName, brandRaw, description),
    price,
    rating,
    arrivalDateTs,
    arrivalSynthetic: false,
    collections,
    tags,
    syntheticReductions: false,
  };
}

function parseSpecs(text: string): Spec[] {
  const v = parsePyLiteral(text.trim());
  if (!Array.isArray(v)) return [];
  const out: Spec[] = [];
  for (const item of v) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) continue;
    const value = item.value;
    if (typeof value !== "string" || cleanLabel(value) === "") continue;
    const key = typeof item.key === "string" ? cleanLabel(item.key) : undefined;
    out.push(key ? { key, value: cleanLabel(value) } : { value: cleanLabel(value) });
  }
  return out;
}

function parseTree(text: string): string[] {
  const v = parsePyLiteral(text.trim());
  if (!Array.isArray(v)) return [];
  // The exporter dropped "&" but left its spaces: "kitchen  dining" was "kitchen & dining".
  return v.filter((x): x is string => typeof x === "string").map((x) => cleanLabel(x.replace(/ {2,}/g, " & ")));
}

const alnum = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * Category levels of a Flipkart tree without its last, product-specific levels: the product name
 * (often truncated) and the brand listing "<brand> <type>" ("shilpkala tops" under "tops"). A level
 * counts as a brand listing only when it is the last category level and the name starts with the brand,
 * so "womens footwear" under "footwear" stays a category.
 */
function splitTree(tree: string[], lowerName: string): { levels: string[]; brandFromTree?: string } {
  const nameKey = alnum(lowerName);
  const isNameLevel = (level: string) => {
    const key = alnum(level);
    return key.length >= 8 && (nameKey.startsWith(key) || key.startsWith(nameKey));
  };
  const levels: string[] = [];
  for (const level of tree) {
    if (alnum(level) === "") continue;
    if (isNameLevel(level)) break;
    levels.push(level);
  }
  const last = levels[levels.length - 1];
  const prev = levels[levels.length - 2];
  if (last !== undefined && prev !== undefined && last.endsWith(` ${prev}`)) {
    const brand = last.slice(0, last.length - prev.length - 1).trim();
    if (brand !== "" && (lowerName === brand || lowerName.startsWith(`${brand} `))) {
      return { levels: levels.slice(0, -1), brandFromTree: brand };
    }
  }
  return { levels };
}

/** Title-cased name with the brand spelled as the brand is ("dkny ..." -> "DKNY ..."). */
function displayName(lowerName: string, brand: string | undefined): string {
  const titled = titleCase(lowerName);
  if (!brand) return titled;
  const words = titled.split(" ");
  const n = brand.split(" ").length;
  if (brandKey(words.slice(0, n).join(" ")) === brandKey(brand)) return [brand, ...words.slice(n)].join(" ");
  return titled;
}

function priceNumber(text: string | undefined): number | undefined {
  const v = Number((text ?? "").trim());
  return Number.isFinite(v) && v > 0 ? Math.round(v * 100) / 100 : undefined;
}

/** "2016-03-25 22:59:23 +0000" -> epoch ms. */
function parseCrawlTimestamp(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, sign, oh, om] = m;
  const utc = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!);
  const offset = (sign === "-" ? -1 : 1) * (+oh! * 60 + +om!) * 60_000;
  const ts = utc - offset;
  return Number.isFinite(ts) && ts > 0 ? ts : undefined;
}

/** Specification keys about size and fit, reported as "Key: value" fit-information lines. */
const FIT_KEYS = ["Fit", "Brand Fit", "Rise", "Length", "Size", "Ring Size", "Heel Height"];

/** Specification keys that name the product's colour, most specific first. */
const COLOR_KEYS = ["color", "primary color", "strap color", "frame color", "dial color", "upholstery color", "finish color"];

/**
 * Colour from the colour specifications, else from the name (without the brand, which may be a colour
 * word: "Red Tape"), else from the exporter's description phrasing: "key features of <name> <colour>,",
 * "color: <colour>", "<colour> coloured", "buy <colour> <name>".
 */
function colorOf(spec: (key: string) => string | undefined, lowerName: string, brand: string, description: string): DraftColor | undefined {
  for (const key of COLOR_KEYS) {
    const value = spec(key);
    const phrase = value ? findColorPhrase(value) : null;
    if (value && phrase) return { label: titleCase(value.toLowerCase()), colors: phrase.colors, hexes: phrase.hexes };
  }
  const nameWithoutBrand = brand !== "" && lowerName.startsWith(brand.toLowerCase()) ? lowerName.slice(brand.length) : lowerName;
  const candidates = [nameWithoutBrand];
  const keyFeatures = /key features of ([^,]+),/.exec(description)?.[1];
  if (keyFeatures?.startsWith(lowerName)) candidates.push(keyFeatures.slice(lowerName.length));
  const anchoredPatterns = [/\bcolou?r: ([a-z &/]+)/, /\b([a-z]+(?: [a-z]+)?)[ -]colou?red\b/, /- buy ([a-z]+(?: [a-z]+)?) /];
  for (const text of candidates) {
    const phrase = findColorPhrase(text, { anchored: text !== nameWithoutBrand });
    if (phrase) return { label: titleCase(phrase.label), colors: phrase.colors, hexes: phrase.hexes };
  }
  for (const re of anchoredPatterns) {
    const m = re.exec(description);
    const phrase = m ? findColorPhrase(m[1]!, { anchored: true }) : null;
    if (phrase) return { label: titleCase(phrase.label), colors: phrase.colors, hexes: phrase.hexes };
  }
  return undefined;
}

/** Descriptive specifications as "Key: Value", plus key-less care lines ("Hand wash"). */
function specFeatures(specs: Spec[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const s of specs) {
    if (out.length >= 30) break;
    const value = s.value;
    if (value.length > 100 || /^(?:no|na|none|n\/a)$/i.test(value)) continue;
    let feature: string;
    if (s.key) {
      if (NON_FEATURE_KEYS.has(s.key.toLowerCase())) continue;
      feature = `${s.key}: ${value}`;
    } else {
      // Key-less values are sales-package contents ("1 Top") or care and notes; keep the care lines.
      if (/^(?:\d|one\b)|\bpairs? of\b/i.test(value) || value.length > 60 || /cancellation|exchange|return/i.test(value)) {
        continue;
      }
      feature = value;
    }
    const k = feature.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(feature);
  }
  return out;
}
