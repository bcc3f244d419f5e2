import { expect, test } from "bun:test";
import { generateContent, type ContentParts } from "../src/modules/enrichment/generated-content.ts";

/* Generated titles and descriptions: each locale's template, and nothing stated that was not extracted. */

const FULL: Record<string, ContentParts> = {
  en: {
    article: "Shirt",
    brand: "Roadster",
    colour: "Navy",
    material: "Cotton",
    features: ["Cotton", "Long sleeve", "Slim fit"],
    occasion: "Formal",
    season: "Summer",
  },
  de: {
    article: "Hemd",
    brand: "Roadster",
    colour: "Marineblau",
    material: "Baumwolle",
    features: ["Baumwolle", "Langarm"],
    occasion: "Formell",
    season: "Sommer",
  },
  fr: {
    article: "Chemise",
    brand: "Roadster",
    colour: "Bleu marine",
    material: "Coton",
    features: ["Coton", "Manches longues"],
    occasion: "Habillé",
    season: "Été",
  },
  es: {
    article: "Camisa",
    brand: "Roadster",
    colour: "Azul marino",
    material: "Algodón",
    features: ["Algodón", "Manga larga"],
    occasion: "Formal",
    season: "Verano",
  },
};

const bare = (article: string): ContentParts => ({
  article,
  brand: null,
  colour: null,
  material: null,
  features: [],
  occasion: null,
  season: null,
});

test("each locale's title and description from the extracted parts", () => {
  const [title, description] = generateContent(["en", "de", "fr", "es"], (l) => FULL[l]!);
  expect(title).toEqual({
    fieldName: "title",
    values: {
      en: "Roadster Navy Cotton Shirt",
      de: "Hemd in Marineblau von Roadster",
      fr: "Chemise Roadster, coloris bleu marine",
      es: "Camisa Roadster en azul marino",
    },
  });
  expect(description!.values.en).toBe("Shirt by Roadster: cotton, long sleeve, and slim fit. For formal wear. Season: summer.");
  expect(description!.values.de).toBe("Hemd von Roadster: Baumwolle und Langarm. Anlass: Formell. Saison: Sommer.");
});

test("nothing that was not extracted is stated, in any locale; only the store's locales are written", () => {
  const items = generateContent(["en", "de", "fr", "es"], (l) => bare(FULL[l]!.article));
  for (const item of items) {
    for (const text of Object.values(item.values)) {
      expect(text).not.toMatch(/undefined|null|\{|\}|: \.| {2}/);
      expect(text.replace(/\.$/, "")).toBe(FULL[Object.keys(item.values).find((l) => item.values[l] === text)!]!.article);
    }
  }
  expect(Object.keys(generateContent(["de", "it"], (l) => bare(FULL[l]!.article))[0]!.values)).toEqual(["de"]);
});
