import type { Product } from "../catalog/product-schema.ts";
import { ATTRIBUTE_KEYS, keyOf, type AttributeKey } from "./vocabulary.ts";
import { matchersOf, vocabularyWords, type PhraseMatcher } from "./vocabulary-matcher.ts";

export { colourKeyForHex } from "./colour-naming.ts";

/*
 * The text stage: a product's attributes (vocabulary value keys) read from what the catalog says about it.
 * Precision comes first: a value is only extracted where the product's own words name it, and each attribute is
 * read from the most trustworthy source that names it at all, without mixing in less trustworthy ones:
 *
 *   fields   what the catalog states as data: gender and ageGroup, tags ("color:red", "season:summer"),
 *            customUserData and "Key: Value" specification lines under one of the attribute's field names,
 *            variation names (colours), the category path (article type from its leaf; gender and age group)
 *   name     the product name, without its brand ("Red Tape", "Blue Saint" are no colours)
 *   lead     the description's first sentence ("Grey printed casual shirt, has a spread collar")
 *   details  features, fit information and the description without its styling tips ("team it with white
 *            sneakers" names no colour of the product)
 *
 * Which sources an attribute reads (SOURCES) follows from how often its words mean something else in free text:
 * a colour named in the middle of a long description is often another product's ("pair it with blue jeans"),
 * a season is often the weather ("beat the summer heat"), so those stop at the lead or the name.
 */

/** Value keys per attribute, most confident first, each once. Attributes with nothing found are absent. */
export type ExtractedAttributes = Partial<Record<AttributeKey, string[]>>;

type Source = "fields" | "name" | "lead" | "details";

const DETAILED: readonly Source[] = ["fields", "name", "details"];
const SOURCES: Readonly<Record<AttributeKey, readonly Source[]>> = {
  colour: ["fields", "name", "lead"],
  pattern: DETAILED,
  material: DETAILED,
  sleeve: DETAILED,
  neckline: DETAILED,
  fit: DETAILED,
  length: DETAILED,
  rise: DETAILED,
  closure: DETAILED,
  heelType: DETAILED,
  occasion: ["fields", "name"],
  season: ["fields", "name"],
  gender: ["fields", "name"],
  ageGroup: ["fields", "name"],
  articleType: ["fields", "name", "lead"],
};

/** Attributes a product has one value of: the most confident is kept. (Article types from a category leaf may be two, "Kurtas & Kurtis".) */
const SINGLE: ReadonlySet<AttributeKey> = new Set(["gender", "ageGroup"]);

/** Words that end the part of a name or sentence about the product itself: "Kurta with Palazzos", "T-shirt für Herren". */
const CUTS = new Set([
  "with",
  "and",
  "for",
  "mit",
  "und",
  "fur",
  "avec",
  "et",
  "pour",
  "con",
  "y",
  "para",
  "de",
  "without",
  "ohne",
  "sans",
  "sin",
]);

/** Sentences of a description that suggest what to wear with the product rather than describe it. */
const STYLING = new RegExp(
  [
    String.raw`\b(?:pair|team|style|match|combine|club|wear)(?:s|ed|ing)?\s+(?:it|this|them|these|him|her|up)?\s*(?:with|alongside)\b`,
    String.raw`\bstyl(?:e|ing)\s+tips?\b|\blooks?\s+(?:great|good|best|perfect)\s+with\b|\bgoes?\s+(?:well\s+)?with\b`,
    String.raw`\bkombinier\w*\s+(?:sie\s+)?(?:es|ihn|sie|das)?\s*mit\b|\bassortie?s?\s+(?:à|avec)\b|(?:^|\s)à porter avec\b|\bcombín\w*\s+con\b`,
  ].join("|"),
  "i",
);

/** Lines, sentences and list items: phrases never span them. */
const SEGMENT = /[\n\r|;•·()[\]{}]+|[.!?](?:\s+|$)|,\s+|\s+[-–—]+\s+/;

export function textAttributes(product: Product): ExtractedAttributes {
  const texts = new ProductTexts(product);
  const out: ExtractedAttributes = {};
  for (const attribute of ATTRIBUTE_KEYS) {
    for (const source of SOURCES[attribute]) {
      let values = source === "fields" ? fromFields(product, attribute, texts) : fromText(texts.of(source), attribute);
      if (attribute === "ageGroup" && source !== "fields" && grownUpsNamed(texts.of(source))) values = values.filter((v) => v !== "kids");
      if (values.length === 0) continue;
      if (attribute === "gender") values = bothGenders(values);
      out[attribute] = SINGLE.has(attribute) ? values.slice(0, 1) : values;
      break;
    }
  }
  return out;
}

/** "Men & Women", "boys and girls" said in separate words: a product for both is unisex. */
function bothGenders(values: string[]): string[] {
  return values.includes("men") && values.includes("women") && !values.includes("unisex") ? ["unisex"] : values;
}

/**
 * "Analog Watch - for Men, Boys": a text that names grown-ups as well as children does not say the product is a
 * children's one (shops list it in both departments), so "kids" is not read from it. A word that names a gender and
 * a child at once ("boys", "Mädchen") is no grown-up.
 */
function grownUpsNamed(segments: string[][]): boolean {
  const gender = matchersOf("gender").text;
  const age = matchersOf("ageGroup").text;
  return segments.some((words) => {
    const children = new Set(age.scan(words).flatMap((s) => (s.value === "kids" ? [s.at] : [])));
    return gender.scan(words).some((s) => (s.value === "men" || s.value === "women") && !children.has(s.at));
  });
}

/** The words of each text source, split into segments and computed once per product. */
class ProductTexts {
  private readonly cache = new Map<Source, string[][]>();
  private readonly brand: string[];

  constructor(private readonly p: Product) {
    this.brand = p.brand ? vocabularyWords(p.brand) : [];
  }

  of(source: Exclude<Source, "fields">): string[][] {
    let segments = this.cache.get(source);
    if (!segments) this.cache.set(source, (segments = this.build(source)));
    return segments;
  }

  /** A text's segments as word lists, the brand's words blanked out (a blank never matches, nor joins a phrase). */
  words(text: string): string[][] {
    return text
      .split(SEGMENT)
      .map((s) => withoutPhrase(vocabularyWords(s.replace(/\s&\s/g, " and ")), this.brand))
      .filter((w) => w.length > 0);
  }

  private build(source: Exclude<Source, "fields">): string[][] {
    const { p } = this;
    if (source === "name") return this.words(p.name);
    if (source === "lead") return this.words(leadOf(p.description ?? "")).slice(0, 1);
    const lines = [...(p.features ?? []), ...(p.fitInformation ?? [])];
    const sentences = (p.description ?? "").split(/(?<=[.!?])\s+|\n+/).filter((s) => !STYLING.test(s));
    return [...lines, ...sentences].flatMap((t) => this.words(t));
  }
}

/** The description's first sentence or line: where catalogs say what the product is. */
function leadOf(description: string): string {
  return description.trim().split(/(?<=[.!?])\s+|\n/)[0] ?? "";
}

/** `words` with every occurrence of `phrase` blanked. */
function withoutPhrase(words: string[], phrase: readonly string[]): string[] {
  if (phrase.length === 0 || words.length < phrase.length) return words;
  const out = [...words];
  for (let i = 0; i + phrase.length <= out.length; i++) {
    if (phrase.every((w, j) => out[i + j] === w)) {
      out.fill("", i, i + phrase.length);
      i += phrase.length - 1;
    }
  }
  return out;
}

function fromText(segments: string[][], attribute: AttributeKey): string[] {
  const { text } = matchersOf(attribute);
  if (attribute === "articleType") {
    // A product has one type, its name's head noun: the first segment naming a type decides it.
    for (const words of segments) {
      const head = headType(text, words);
      if (head) return [head];
    }
    return [];
  }
  const out: string[] = [];
  for (const words of segments) for (const v of text.values(words)) if (!out.includes(v)) out.push(v);
  return out;
}

/**
 * The type a name is about: the last type named before the first cut word that follows a type ("Printed Shirt
 * Dress" is a dress, "Kurta with Palazzos" a kurta, "Robe de soirée" a robe, "Analog Watch for Men" a watch).
 */
function headType(matcher: PhraseMatcher, words: readonly string[]): string | null {
  const spans = matcher.scan(words);
  const types = spans.filter((s) => s.value !== null);
  if (types.length === 0) return null;
  const covered = new Set(spans.flatMap((s) => Array.from({ length: s.length }, (_, i) => s.at + i)));
  const first = types[0]!;
  let cut = words.length;
  for (let i = first.at + first.length; i < words.length; i++) {
    if (CUTS.has(words[i]!) && !covered.has(i)) {
      cut = i;
      break;
    }
  }
  return types.filter((t) => t.at < cut).at(-1)!.value;
}

function fromFields(p: Product, attribute: AttributeKey, texts: ProductTexts): string[] {
  const { field, fieldNames } = matchersOf(attribute);
  const out: string[] = [];
  const add = (values: readonly string[]) => {
    for (const v of values) if (!out.includes(v)) out.push(v);
  };
  const read = (text: string) => {
    for (const words of texts.words(text)) add(field.values(words));
  };
  const named = (name: string) => {
    const words = vocabularyWords(name);
    return fieldNames.some((f) => f.length <= words.length && f.every((w, i) => words[i] === w));
  };

  // The service's own fields say it outright.
  if (attribute === "gender" && p.gender) return [p.gender.toLowerCase()];
  if (attribute === "ageGroup" && p.ageGroup) return [p.ageGroup.toLowerCase()];

  for (const tag of p.tags ?? []) {
    const colon = tag.indexOf(":");
    if (colon > 0 && named(tag.slice(0, colon))) read(tag.slice(colon + 1));
  }
  for (const [key, values] of Object.entries(p.customUserData ?? {})) if (named(key)) values.forEach(read);
  for (const line of [...(p.features ?? []), ...(p.fitInformation ?? [])]) {
    const kv = /^([^:]{1,40}):\s*(.+)$/.exec(line);
    if (kv && named(kv[1]!)) read(kv[2]!);
  }
  if (attribute === "colour") for (const v of p.variations ?? []) if (v.name) read(v.name);
  if (attribute === "articleType") {
    const leaf = p.categories?.at(-1);
    if (leaf) {
      read(leaf);
      // A type the vocabulary lacks is still the catalog's word for it: keyed by that word, shown as it.
      if (out.length === 0 && keyOf(leaf) !== "") add([keyOf(leaf)]);
    }
  }
  if (attribute === "gender" || attribute === "ageGroup") for (const c of p.categories ?? []) read(c);
  return out;
}
