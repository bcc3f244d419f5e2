import { IntlMessageFormat } from "intl-messageformat";

/*
 * Generated content: a title and a description per locale, from ICU message templates over the attributes the
 * stages extracted and the product's own brand and name. A template only mentions an attribute that was
 * extracted (each part sits in a select on whether it is there), so nothing is ever stated that the product data
 * did not say. Languages place the parts differently; French and Spanish put the colour after a noun-neutral
 * word ("coloris", "en") so no adjective agreement is needed.
 */

export const CONTENT_LOCALES = ["en", "de", "fr", "es"] as const;
export type ContentLocale = (typeof CONTENT_LOCALES)[number];

export interface ContentItem {
  /** "title" and "description" today; receivers should accept others. */
  fieldName: string;
  values: Record<string, string>;
}

/** The extracted parts, already in the locale's words. */
export interface ContentParts {
  /** The article type's name, else the product's own name. */
  article: string;
  brand: string | null;
  colour: string | null;
  material: string | null;
  /** Pattern, material, sleeve, neckline, fit... in the order to list them. */
  features: string[];
  occasion: string | null;
  season: string | null;
}

const TEMPLATES: Record<ContentLocale, { title: string; description: string }> = {
  en: {
    title:
      "{hasBrand, select, yes {{brand} } other {}}{hasColour, select, yes {{colour} } other {}}{hasMaterial, select, yes {{material} } other {}}{article}",
    description:
      "{article}{hasBrand, select, yes { by {brand}} other {}}{hasFeatures, select, yes {: {features}} other {}}.{hasOccasion, select, yes { For {occasion} wear.} other {}}{hasSeason, select, yes { Season: {season}.} other {}}",
  },
  de: {
    title: "{article}{hasColour, select, yes { in {colour}} other {}}{hasBrand, select, yes { von {brand}} other {}}",
    description:
      "{article}{hasBrand, select, yes { von {brand}} other {}}{hasFeatures, select, yes {: {features}} other {}}.{hasOccasion, select, yes { Anlass: {occasion}.} other {}}{hasSeason, select, yes { Saison: {season}.} other {}}",
  },
  fr: {
    title: "{article}{hasBrand, select, yes { {brand}} other {}}{hasColour, select, yes {, coloris {colour}} other {}}",
    description:
      "{article}{hasBrand, select, yes { {brand}} other {}}{hasFeatures, select, yes { : {features}} other {}}.{hasOccasion, select, yes { Occasion : {occasion}.} other {}}{hasSeason, select, yes { Saison : {season}.} other {}}",
  },
  es: {
    title: "{article}{hasBrand, select, yes { {brand}} other {}}{hasColour, select, yes { en {colour}} other {}}",
    description:
      "{article}{hasBrand, select, yes { de {brand}} other {}}{hasFeatures, select, yes {: {features}} other {}}.{hasOccasion, select, yes { Ocasión: {occasion}.} other {}}{hasSeason, select, yes { Temporada: {season}.} other {}}",
  },
};

const compiled = new Map<string, IntlMessageFormat>();
function template(locale: ContentLocale, field: "title" | "description"): IntlMessageFormat {
  const key = `${locale}:${field}`;
  let t = compiled.get(key);
  if (!t) compiled.set(key, (t = new IntlMessageFormat(TEMPLATES[locale][field], locale)));
  return t;
}

/** Mid-sentence words: lower case, except in German, where nouns keep their capital. */
const inSentence = (word: string, locale: ContentLocale) => (locale === "de" ? word : word.toLocaleLowerCase(locale));

function render(locale: ContentLocale, field: "title" | "description", p: ContentParts): string {
  const yes = (v: unknown) => (v ? "yes" : "no");
  const features = new Intl.ListFormat(locale, { type: "conjunction", style: "long" }).format(p.features.map((f) => inSentence(f, locale)));
  const text = template(locale, field).format({
    article: p.article,
    brand: p.brand ?? "",
    hasBrand: yes(p.brand),
    colour: p.colour ? (field === "title" && locale === "en" ? p.colour : inSentence(p.colour, locale)) : "",
    hasColour: yes(p.colour),
    material: p.material ?? "",
    hasMaterial: yes(p.material),
    features,
    hasFeatures: yes(p.features.length),
    occasion: p.occasion ? inSentence(p.occasion, locale) : "",
    hasOccasion: yes(p.occasion),
    season: p.season ? inSentence(p.season, locale) : "",
    hasSeason: yes(p.season),
  });
  return String(text).replace(/\s+/g, " ").trim();
}

/** A title and a description in each of the store's locales (those we have templates for). */
export function generateContent(locales: readonly string[], partsIn: (locale: ContentLocale) => ContentParts): ContentItem[] {
  const served = CONTENT_LOCALES.filter((l) => locales.includes(l));
  const title: Record<string, string> = {};
  const description: Record<string, string> = {};
  for (const locale of served) {
    const parts = partsIn(locale);
    title[locale] = render(locale, "title", parts);
    description[locale] = render(locale, "description", parts);
  }
  return [
    { fieldName: "title", values: title },
    { fieldName: "description", values: description },
  ];
}
