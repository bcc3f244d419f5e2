import { beforeAll, describe, expect, test } from "bun:test";
import { colorTable } from "../../demo-store/src/catalog/colors.ts";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { colourKeyForHex, textAttributes, type ExtractedAttributes } from "../src/modules/enrichment/text-attributes.ts";
import { buildMatchers, vocabularyWords } from "../src/modules/enrichment/vocabulary-matcher.ts";
import {
  ATTRIBUTE_KEYS,
  attributeOf,
  displayNameOf,
  keyOf,
  valueOf,
  VOCABULARY,
  VOCABULARY_LOCALES,
} from "../src/modules/enrichment/vocabulary.ts";
import { demoProducts } from "./support/demo-products.ts";

/*
 * The text stage's knowledge: the vocabulary's integrity, what textAttributes reads and refuses to read (one
 * hand-written product per rule), naming image colours, and the precision and coverage of the extraction on the
 * real demo catalog, where the data sets state the answer.
 */

const attrs = (fields: Partial<Product>): ExtractedAttributes => textAttributes({ id: "p1", name: "Product", ...fields });
const named = (name: string, more: Partial<Product> = {}) => attrs({ name, ...more });

describe("vocabulary", () => {
  test("has the fifteen attributes, in ATTRIBUTE_KEYS order, each with names in the four locales and field names", () => {
    expect(VOCABULARY.map((a) => a.key)).toEqual([...ATTRIBUTE_KEYS]);
    expect(ATTRIBUTE_KEYS).toContain("heelType");
    for (const a of VOCABULARY) {
      for (const locale of VOCABULARY_LOCALES) expect(a.displayName[locale].trim()).not.toBe("");
      expect(a.fieldNames.length).toBeGreaterThan(0);
      expect(a.values.length).toBeGreaterThan(1);
    }
  });

  test("every value has a well-formed unique key, a display name and a synonyms entry per locale", () => {
    for (const a of VOCABULARY) {
      const keys = a.values.map((v) => v.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const v of a.values) {
        expect(v.key).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        for (const locale of VOCABULARY_LOCALES) {
          expect(v.displayName[locale].trim(), `${a.key}.${v.key}.${locale}`).not.toBe("");
          expect(Array.isArray(v.synonyms[locale]), `${a.key}.${v.key}.${locale}`).toBe(true);
          // Every value has words of its own in each language, so a catalog in any of them can name it.
          expect(v.synonyms[locale].length, `${a.key}.${v.key}.${locale}`).toBeGreaterThan(0);
          for (const s of v.synonyms[locale]) expect(vocabularyWords(s).length, `${a.key}.${v.key}: "${s}"`).toBeGreaterThan(0);
        }
      }
    }
  });

  test("translations are the shoppers' words, not copies of the English", () => {
    expect(valueOf("sleeve", "sleeveless")!.displayName).toEqual({
      en: "Sleeveless",
      de: "Ärmellos",
      fr: "Sans manches",
      es: "Sin mangas",
    });
    expect(valueOf("colour", "navy")!.displayName).toEqual({ en: "Navy", de: "Marineblau", fr: "Bleu marine", es: "Azul marino" });
    expect(valueOf("neckline", "round-neck")!.synonyms.en).toContain("crew neck");
    expect(valueOf("neckline", "round-neck")!.synonyms.de).toContain("rundhals");
    expect(valueOf("articleType", "t-shirt")!.displayName.es).toBe("Camiseta");
    // Most values have a name of their own in each other locale (the rest are loanwords: Kurta, Jeans, Beige).
    for (const locale of ["de", "fr", "es"] as const) {
      const values = VOCABULARY.flatMap((a) => a.values);
      const own = values.filter((v) => v.displayName[locale] !== v.displayName.en).length;
      expect(own / values.length).toBeGreaterThan(0.75);
    }
  });

  test("colour values: at least twenty, each with a #rrggbb hex except multicolour", () => {
    const colours = attributeOf("colour").values;
    expect(colours.length).toBeGreaterThanOrEqual(20);
    for (const key of [
      "black",
      "white",
      "grey",
      "navy",
      "blue",
      "light-blue",
      "red",
      "maroon",
      "pink",
      "purple",
      "orange",
      "yellow",
      "green",
      "olive",
      "teal",
      "brown",
      "beige",
      "cream",
      "gold",
      "silver",
      "multi",
    ]) {
      expect(valueOf("colour", key), key).toBeDefined();
    }
    for (const v of colours) {
      if (v.key === "multi") expect(v.hex).toBeUndefined();
      else expect(v.hex, v.key).toMatch(/^#[0-9a-f]{6}$/);
    }
    for (const a of VOCABULARY) if (a.key !== "colour") for (const v of a.values) expect(v.hex).toBeUndefined();
  });

  test("no phrase names two values of one attribute, in free text or in a field (nor a value and a blocker)", () => {
    for (const a of VOCABULARY) {
      expect(() => buildMatchers(a)).not.toThrow();
      const owner = new Map<string, string>();
      for (const v of a.values) {
        const phrases = [v.displayName.en, ...VOCABULARY_LOCALES.flatMap((l) => v.synonyms[l])];
        for (const p of phrases) {
          const words = vocabularyWords(p).join(" ");
          expect(owner.get(words) ?? v.key, `${a.key}: "${p}"`).toBe(v.key);
          owner.set(words, v.key);
        }
      }
      for (const b of a.blockers ?? []) expect(owner.has(vocabularyWords(b).join(" ")), `${a.key} blocker "${b}"`).toBe(false);
    }
    // The matcher refuses a vocabulary that does.
    const broken = { ...attributeOf("season"), values: [...attributeOf("season").values] };
    broken.values[0] = { ...broken.values[0]!, synonyms: { ...broken.values[0]!.synonyms, en: ["summer"] } };
    expect(() => buildMatchers(broken)).toThrow(/summer/);
  });

  test("article types: about sixty of the demo catalog's most common ones; unknown keys show as the catalog's word", () => {
    expect(attributeOf("articleType").values.length).toBeGreaterThanOrEqual(60);
    expect(displayNameOf("articleType", "dress", "de")).toBe("Kleid");
    expect(displayNameOf("articleType", "car-sun-shades", "fr")).toBe("Car sun shades");
    expect(valueOf("articleType", "car-sun-shades")).toBeUndefined();
    expect(keyOf("Sacs à main & Pochettes")).toBe("sacs-a-main-pochettes");
  });
});

describe("textAttributes reads", () => {
  test("colours from names, in order, each once; the more specific phrase wins", () => {
    expect(named("Roadster Men Black & White Checked Black Shirt").colour).toEqual(["black", "white"]);
    expect(named("Navy Blue Polo T-shirt").colour).toEqual(["navy"]);
    expect(named("Women Rose Gold-Toned Analogue Watch").colour).toEqual(["rose-gold"]);
    expect(named("Off-White Kurta").colour).toEqual(["cream"]);
    expect(named("Kleid in Weiß").colour).toEqual(["white"]);
    expect(named("KLEID IN WEISS").colour).toEqual(["white"]);
    expect(named("Robe noire").colour).toEqual(["black"]);
    expect(named("Camiseta azul marino").colour).toEqual(["navy"]);
  });

  test("no colour from a longer word, a brand, or a phrase where the word is something else", () => {
    expect(named("Blackberry Print Shirt").colour).toBeUndefined();
    expect(named("Red Tape Men Brown Formal Shoes", { brand: "Red Tape" }).colour).toEqual(["brown"]);
    expect(named("Olive Oil Soap").colour).toBeUndefined();
    expect(named("Anti-Tan Face Pack").colour).toBeUndefined();
    expect(named("Rouge à lèvres mat").colour).toBeUndefined();
    expect(named("Kohl Eyeliner in Golden Brown", { description: "Pair it with red lipstick." }).colour).toEqual(["gold", "brown"]);
  });

  test("a colour named only deep in marketing copy is not the product's; the description's first sentence is", () => {
    expect(
      attrs({ name: "Tunic", description: "Lovely everyday tunic. Team it with white sneakers and blue jeans." }).colour,
    ).toBeUndefined();
    expect(attrs({ name: "Tunic", description: "Green printed tunic, has a round neck. Wear it with white sneakers." }).colour).toEqual([
      "green",
    ]);
  });

  test("the catalog's own statements win over its words: variations, tags, fields", () => {
    expect(
      named("Blue Shirt", {
        variations: [
          { id: "v1", name: "Red" },
          { id: "v2", name: "Bottle Green" },
        ],
      }).colour,
    ).toEqual(["red", "green"]);
    expect(named("Shirt", { tags: ["color:navy-blue", "colour:off-white"] }).colour).toEqual(["navy", "cream"]);
    expect(named("Shirt", { tags: ["farbe:Dunkelblau"] }).colour).toEqual(["navy"]);
    expect(named("Shirt", { customUserData: { material: ["Linen"] } }).material).toEqual(["linen"]);
    expect(named("Top", { features: ["Fabric: Cotton", "Strap Color: Blue"], description: "A silk top." }).material).toEqual(["cotton"]);
    expect(named("Watch", { features: ["Strap Color: Green"] }).colour).toBeUndefined();
  });

  test("materials: whole words, the specific phrase first, parts and other meanings blocked", () => {
    expect(named("Shirtsilk Tunic").material).toBeUndefined();
    expect(named("Pure Silk Saree").material).toEqual(["silk"]);
    expect(named("Women Faux Leather Jacket").material).toEqual(["faux-leather"]);
    expect(named("Leather Loafers", { features: ["Rubber sole"] }).material).toEqual(["leather"]);
    expect(named("Loafers", { features: ["Rubber sole"] }).material).toBeUndefined();
    expect(named("Printed Bed Linen Set").material).toBeUndefined();
    expect(named("T-Shirt aus Baumwolle").material).toEqual(["cotton"]);
    expect(named("Cotton Blend Kurta with Elastane").material).toEqual(["cotton", "elastane"]);
    expect(named("Top", { description: "A soft cotton top. Pair it with leather boots." }).material).toEqual(["cotton"]);
    expect(named("Top", { description: "Un haut en lin. À porter avec un jean en denim." }).material).toEqual(["linen"]);
  });

  test("patterns, but not solid wood or quality-checked goods", () => {
    expect(named("Men Blue Striped Slim Fit Shirt").pattern).toEqual(["striped"]);
    expect(named("Floral Printed Maxi Dress").pattern).toEqual(["floral"]);
    expect(named("Solid Wood Coffee Table").pattern).toBeUndefined();
    expect(named("Bag", { description: "Every piece is quality checked." }).pattern).toBeUndefined();
    expect(named("Check out our new Bag").pattern).toBeUndefined();
    expect(named("Kariertes Hemd").pattern).toEqual(["checked"]);
    expect(named("Robe à pois").pattern).toEqual(["polka-dot"]);
  });

  test("sleeves, necklines and fit only in phrases, never from bare adjectives", () => {
    expect(named("Sleeveless Top").sleeve).toEqual(["sleeveless"]);
    expect(named("Ärmelloses Top").sleeve).toEqual(["sleeveless"]);
    expect(named("Top sans manches").sleeve).toEqual(["sleeveless"]);
    expect(named("Blusa sin mangas").sleeve).toEqual(["sleeveless"]);
    expect(named("Half Sleeves Kurta").sleeve).toEqual(["short-sleeve"]);
    expect(named("Short Kurta").sleeve).toBeUndefined();
    expect(named("Crew Neck T-shirt").neckline).toEqual(["round-neck"]);
    expect(named("Rundhals-Pullover").neckline).toEqual(["round-neck"]);
    expect(named("V-Neck Sweater").neckline).toEqual(["v-neck"]);
    expect(named("Round Dial Watch").neckline).toBeUndefined();
    expect(named("Slim Fit Jeans").fit).toEqual(["slim"]);
    expect(named("Slim Leather Wallet").fit).toBeUndefined();
    expect(named("A-Line Kurta").fit).toEqual(["a-line"]);
  });

  test("length, rise, closure and heel", () => {
    expect(named("Floral Maxi Dress").length).toEqual(["maxi"]);
    expect(named("Maxi Pads, pack of 10").length).toBeUndefined();
    expect(named("High-Rise Skinny Fit Jeans")).toMatchObject({ rise: ["high-rise"], fit: ["skinny"] });
    expect(named("White Lace-Up Sneakers").closure).toEqual(["lace-up"]);
    expect(named("Backpack", { description: "Has a zip pocket and a padded strap." }).closure).toBeUndefined();
    expect(named("Backpack", { description: "Main compartment with zip closure." }).closure).toEqual(["zip"]);
    expect(named("Black Block Heels").heelType).toEqual(["block-heel"]);
    expect(named("Block Print Kurta").heelType).toBeUndefined();
    expect(named("Escarpins à talon aiguille").heelType).toEqual(["stiletto"]);
  });

  test("occasions and seasons from fields and names, not from marketing copy", () => {
    expect(named("Shirt", { tags: ["usage:smart-casual", "season:fall"] })).toMatchObject({
      occasion: ["smart-casual"],
      season: ["autumn"],
    });
    expect(named("Party Wear Dress").occasion).toEqual(["party"]);
    expect(named("Semi-Formal Shirt").occasion).toEqual(["smart-casual"]);
    expect(named("Winter Jacket").season).toEqual(["winter"]);
    expect(named("Cap", { description: "Beat the summer heat at the beach." })).not.toHaveProperty("season");
    expect(named("Cap", { description: "Beat the summer heat at the beach." })).not.toHaveProperty("occasion");
    expect(named("Arrow Sport Men Check Shirt").occasion).toBeUndefined();
    expect(named("Girls Cotton Training Bra").occasion).toBeUndefined();
    expect(named("Men Running Shoes").occasion).toEqual(["sports"]);
    expect(named("Robe d'été").season).toEqual(["summer"]);
    expect(named("Robe", { description: "Elle a été conçue à Paris." }).season).toBeUndefined();
  });

  test("gender and age group: the product's fields, else its name; both genders is unisex", () => {
    expect(named("Women's Kurta", { gender: "Men", ageGroup: "Teens" })).toMatchObject({ gender: ["men"], ageGroup: ["teens"] });
    expect(named("Nike Men's Running Shoes").gender).toEqual(["men"]);
    expect(named("Herren T-Shirt").gender).toEqual(["men"]);
    expect(named("Sneakers for Men and Women").gender).toEqual(["unisex"]);
    expect(named("Watch - for Women, Men").gender).toEqual(["unisex"]);
    expect(named("Spider-Man Printed T-shirt")).not.toHaveProperty("gender");
    expect(named("Jungle Book Boys Green T-shirt")).toMatchObject({ gender: ["men"], ageGroup: ["kids"] });
    // Sold to men and boys alike: not a children's product.
    expect(named("Analog Watch - for Men, Boys")).not.toHaveProperty("ageGroup");
    expect(named("Women Baby Doll Nightdress")).not.toHaveProperty("ageGroup");
    expect(named("Tee", { categories: ["Clothing", "Kids Clothing", "Girls Wear"] })).toMatchObject({
      gender: ["women"],
      ageGroup: ["kids"],
    });
  });

  test("the article type: the category leaf, else the name's head noun, in any language", () => {
    expect(named("Anything", { categories: ["Apparel", "Topwear", "Tshirts"] }).articleType).toEqual(["t-shirt"]);
    expect(named("Anything", { categories: ["Apparel", "Topwear", "Kurtas & Kurtis"] }).articleType).toEqual(["kurta", "kurti"]);
    expect(named("Anything", { categories: ["Automotive", "Car Sun Shades"] }).articleType).toEqual(["car-sun-shades"]);
    expect(named("Polo T-shirt").articleType).toEqual(["t-shirt"]);
    expect(named("Printed Shirt Dress").articleType).toEqual(["dress"]);
    expect(named("Women Pink Kurta with Palazzos & Dupatta").articleType).toEqual(["kurta-set"]);
    expect(named("Kurta with Churidar").articleType).toEqual(["kurta-set"]);
    expect(named("Analog Watch for Men").articleType).toEqual(["watch"]);
    expect(named("Robe de soirée").articleType).toEqual(["dress"]);
    expect(named("Camiseta de manga corta").articleType).toEqual(["t-shirt"]);
    expect(named("Sac à dos en cuir")).toMatchObject({ articleType: ["backpack"], material: ["leather"] });
    expect(named("Men Black Slip-On Sneakers")).toMatchObject({ articleType: ["sneakers"], closure: ["slip-on"] });
    expect(named("Pull col haut")).toMatchObject({ articleType: ["sweater"], neckline: ["high-neck"] });
    expect(named("Leather Watch Strap").articleType).toBeUndefined();
  });

  test("nothing that the product does not say", () => {
    expect(attrs({ name: "Gift Card" })).toEqual({});
    expect(attrs({ name: "Shirtsilk blackberry roundabout" })).toEqual({});
  });

  test("keys are the vocabulary's, most confident first, without duplicates", () => {
    const p = demoProducts(300);
    for (const product of p) {
      const a = textAttributes(product);
      for (const [attribute, values] of Object.entries(a) as [keyof ExtractedAttributes, string[]][]) {
        expect(new Set(values).size).toBe(values.length);
        for (const key of values) {
          expect(key).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
          if (attribute !== "articleType") expect(valueOf(attribute, key), `${attribute}:${key}`).toBeDefined();
        }
      }
    }
  });
});

describe("colourKeyForHex", () => {
  test("names every vocabulary colour by itself and plain colours by their names", () => {
    for (const v of attributeOf("colour").values) if (v.hex) expect(colourKeyForHex(v.hex)).toBe(v.key);
    expect(colourKeyForHex("#000000")).toBe("black");
    expect(colourKeyForHex("#ffffff")).toBe("white");
    expect(colourKeyForHex("#1f2a48")).toBe("navy");
    expect(colourKeyForHex("#FF0000")).toBe("red");
    expect(colourKeyForHex("#a9a9a6")).toBe("silver");
    expect(() => colourKeyForHex("not a colour")).toThrow(RangeError);
  });

  test("names the demo catalog's image colours as the vocabulary names them in text (or a neighbour)", () => {
    // Where the demo's colour is between two vocabulary colours, either neighbour is a fair name for its pixels.
    const NEIGHBOURS: Record<string, string[]> = {
      "Off White": ["cream", "white"],
      Steel: ["grey"],
      Metallic: ["grey"],
      "Grey Melange": ["grey", "silver"],
      Platinum: ["silver", "white"],
      Mauve: ["lavender", "rose-gold", "pink"],
      "Mushroom Brown": ["tan", "beige", "brown"],
      Taupe: ["bronze", "brown", "beige"],
      "Camel Brown": ["tan", "bronze"],
      Copper: ["bronze"],
      Transparent: ["white"],
      Aqua: ["turquoise"],
      Skin: ["nude"],
      Cherry: ["maroon", "red"],
    };
    for (const { name, hex } of colorTable()) {
      const inText = named(name).colour ?? [];
      const accepted = NEIGHBOURS[name] ?? inText;
      expect(accepted.length, name).toBeGreaterThan(0);
      expect(accepted, `${name} ${hex}`).toContain(colourKeyForHex(hex));
    }
  });
});

/*
 * Quality on the real demo catalog, where the data sets state the answer: Fashion Product Images (styles.csv) has
 * a base colour, article type, season and usage per product, which the converter carries into `color:`, `type:`,
 * `season:` and `usage:` tags and the category leaf; it and the Myntra catalog have a gender column (Boys and Girls
 * become Men/Women plus ageGroup Kids). Two readings:
 *
 *   catalog  the whole product, as a store would send it: this mostly checks that the vocabulary maps the data
 *            sets' own words ("Tshirts", "Navy Blue", "Fall", "Smart Casual") onto the right values
 *   text     only the name, brand, features and (Myntra's real) description: the fields that state the answer are
 *            removed, so this measures reading text
 *
 * Precision: of the values extracted, the share the data set agrees with; for colours only the first (the data
 * set states one base colour, while names often list more: "Lotto White Blue Shoe" is "White"). Coverage: the
 * share of products with an answer that got any value.
 */

/** The converter's colour tags (its canonical colour names, slugged) and the vocabulary colours that name them. */
const COLOUR_TRUTH: Record<string, string[]> = {
  black: ["black"],
  white: ["white"],
  blue: ["blue"],
  "navy-blue": ["navy"],
  brown: ["brown"],
  grey: ["grey"],
  red: ["red"],
  green: ["green"],
  pink: ["pink"],
  purple: ["purple"],
  silver: ["silver"],
  yellow: ["yellow"],
  beige: ["beige"],
  gold: ["gold"],
  maroon: ["maroon"],
  orange: ["orange"],
  olive: ["olive"],
  cream: ["cream"],
  steel: ["grey", "silver"],
  charcoal: ["charcoal", "grey"],
  peach: ["peach"],
  "off-white": ["cream", "white"],
  skin: ["nude", "beige"],
  lavender: ["lavender"],
  "grey-melange": ["grey"],
  khaki: ["khaki"],
  magenta: ["magenta"],
  teal: ["teal"],
  tan: ["tan"],
  mustard: ["mustard"],
  bronze: ["bronze"],
  copper: ["bronze"],
  "turquoise-blue": ["turquoise"],
  rust: ["rust"],
  burgundy: ["maroon"],
  metallic: ["silver", "grey"],
  "coffee-brown": ["brown"],
  mauve: ["lavender"],
  rose: ["pink"],
  nude: ["nude"],
  "sea-green": ["green"],
  "mushroom-brown": ["brown", "beige"],
  taupe: ["beige"],
  "lime-green": ["lime"],
  "fluorescent-green": ["lime"],
  coral: ["coral"],
  fuchsia: ["magenta"],
  violet: ["purple"],
  "rose-gold": ["rose-gold"],
  gunmetal: ["charcoal"],
  platinum: ["silver"],
  "camel-brown": ["tan"],
  "light-blue": ["light-blue"],
  turquoise: ["turquoise"],
  transparent: [],
  aqua: ["turquoise"],
  cherry: ["red", "maroon"],
  multi: ["multi"],
};

/**
 * The data set's article types (slugged) and the vocabulary types its products are named by. Mostly one to one;
 * where the data set files several kinds under one type, so do we: it files flat sandals under Flats, heeled
 * sandals under Heels, sling bags under Handbags, beanies under Caps, boxer briefs under Briefs. A type not listed
 * is judged by the key the text stage gives a type it does not know (the catalog's own word).
 */
const TYPE_TRUTH: Record<string, string[]> = {
  tshirts: ["t-shirt"],
  shirts: ["shirt"],
  "casual-shoes": ["casual-shoes", "shoes", "sneakers", "loafers", "boots"],
  watches: ["watch"],
  "sports-shoes": ["sports-shoes", "shoes", "sneakers"],
  "formal-shoes": ["formal-shoes", "shoes", "loafers"],
  kurtas: ["kurta"],
  kurtis: ["kurti"],
  tops: ["top"],
  handbags: ["handbag", "bag", "sling-bag"],
  heels: ["heels", "sandals"],
  flats: ["flats", "sandals"],
  sandals: ["sandals"],
  "sports-sandals": ["sandals"],
  "flip-flops": ["flip-flops", "slippers"],
  sunglasses: ["sunglasses"],
  wallets: ["wallet"],
  belts: ["belt"],
  briefs: ["briefs", "boxers"],
  backpacks: ["backpack"],
  rucksacks: ["backpack"],
  socks: ["socks"],
  "perfume-and-body-mist": ["perfume"],
  "fragrance-gift-set": ["perfume"],
  deodorant: ["deodorant"],
  jeans: ["jeans"],
  jeggings: ["jeans", "leggings"],
  shorts: ["shorts"],
  trousers: ["trousers"],
  "track-pants": ["track-pants"],
  bra: ["bra"],
  dresses: ["dress"],
  earrings: ["earrings"],
  "nail-polish": ["nail-polish"],
  lipstick: ["lipstick"],
  "lip-gloss": ["lip-gloss"],
  "kajal-and-eyeliner": ["eyeliner"],
  eyeshadow: ["eyeshadow"],
  clutches: ["clutch"],
  caps: ["cap", "hat"],
  hat: ["hat", "cap"],
  sweatshirts: ["sweatshirt"],
  sweaters: ["sweater", "cardigan"],
  shrug: ["cardigan"],
  ties: ["tie"],
  jackets: ["jacket"],
  "rain-jacket": ["jacket", "coat"],
  "nehru-jackets": ["jacket", "waistcoat"],
  waistcoat: ["waistcoat"],
  blazers: ["blazer"],
  suits: ["suit", "kurta-set"],
  "innerwear-vests": ["vest", "t-shirt"],
  camisoles: ["vest", "top"],
  tunics: ["tunic"],
  "kurta-sets": ["kurta-set", "kurta"],
  leggings: ["leggings"],
  tights: ["tights", "leggings"],
  stockings: ["tights"],
  capris: ["capris"],
  skirts: ["skirt"],
  palazzos: ["palazzos"],
  salwar: ["salwar"],
  churidar: ["salwar", "leggings"],
  patiala: ["salwar"],
  "salwar-and-dupatta": ["salwar", "dupatta"],
  dupatta: ["dupatta"],
  sarees: ["saree"],
  "lehenga-choli": ["lehenga"],
  "necklace-and-chains": ["necklace"],
  pendant: ["pendant", "necklace"],
  ring: ["ring"],
  bracelet: ["bracelet", "bangle"],
  bangle: ["bangle", "bracelet"],
  cufflinks: ["cufflinks"],
  scarves: ["scarf"],
  mufflers: ["scarf"],
  stoles: ["shawl", "scarf"],
  gloves: ["gloves"],
  "night-suits": ["nightwear-set"],
  nightdress: ["nightdress"],
  "baby-dolls": ["nightdress"],
  "lounge-pants": ["lounge-pants", "trousers"],
  "lounge-shorts": ["lounge-pants", "shorts"],
  "bath-robe": ["bathrobe"],
  trunk: ["boxers", "briefs"],
  boxers: ["boxers"],
  swimwear: ["swimwear"],
  boots: ["boots"],
  jumpsuit: ["jumpsuit"],
  rompers: ["jumpsuit"],
  tracksuits: ["tracksuit", "track-pants"],
  "laptop-bag": ["laptop-bag", "bag", "backpack"],
  "duffel-bag": ["travel-bag", "bag"],
  "trolley-bag": ["travel-bag"],
  "messenger-bag": ["sling-bag", "bag"],
  "waist-pouch": ["sling-bag"],
};
const SEASON_TRUTH: Record<string, string> = { summer: "summer", fall: "autumn", winter: "winter", spring: "spring" };
const USAGE_TRUTH: Record<string, string[]> = {
  casual: ["casual"],
  "smart-casual": ["smart-casual"],
  formal: ["formal"],
  ethnic: ["ethnic"],
  sports: ["sports"],
  party: ["party"],
  travel: ["travel"],
  home: ["lounge"],
};

type Judged = "colour" | "articleType" | "season" | "occasion" | "gender" | "ageGroup";
const JUDGED: Judged[] = ["colour", "articleType", "season", "occasion", "gender", "ageGroup"];

const tagValues = (p: Product, prefix: string) =>
  (p.tags ?? []).filter((t) => t.startsWith(`${prefix}:`)).map((t) => t.slice(prefix.length + 1));

/** What the data set says, as accepted vocabulary keys per attribute. */
function truthOf(p: Product): Partial<Record<Judged, string[]>> {
  const truth: Partial<Record<Judged, string[]>> = {};
  if (p.id.startsWith("fk-")) return truth; // Flipkart's gender and ageGroup are read from its text by the converter.
  if (p.gender) truth.gender = [p.gender.toLowerCase()];
  if (p.ageGroup) truth.ageGroup = [p.ageGroup.toLowerCase()];
  if (!p.id.startsWith("fpi-")) return truth;
  const colours = tagValues(p, "color");
  if (colours.length > 0) truth.colour = colours.flatMap((c) => COLOUR_TRUTH[c] ?? []);
  const type = tagValues(p, "type")[0];
  if (type) truth.articleType = TYPE_TRUTH[type] ?? [keyOf(p.categories!.at(-1)!)];
  const seasons = tagValues(p, "season");
  if (seasons.length > 0) truth.season = seasons.map((s) => SEASON_TRUTH[s]!);
  const usages = tagValues(p, "usage");
  if (usages.length > 0) truth.occasion = usages.flatMap((u) => USAGE_TRUTH[u] ?? []);
  return truth;
}

/** The product without the fields that state the answer, nor the description the converter generated from them. */
function textOnly(p: Product): Product {
  const generated = p.customUserData?.synthetic?.includes("description");
  return {
    id: p.id,
    name: p.name,
    brand: p.brand,
    description: generated ? undefined : p.description,
    features: p.features,
    fitInformation: p.fitInformation,
  };
}

interface Figure {
  products: number;
  covered: number;
  values: number;
  correct: number;
}
const precision = (f: Figure) => f.correct / f.values;
const coverage = (f: Figure) => f.covered / f.products;

function measure(products: Product[], view: (p: Product) => Product): Record<Judged, Figure> {
  const out = Object.fromEntries(JUDGED.map((k) => [k, { products: 0, covered: 0, values: 0, correct: 0 }])) as Record<Judged, Figure>;
  for (const p of products) {
    const truth = truthOf(p);
    const got = textAttributes(view(p));
    for (const k of JUDGED) {
      const accepted = truth[k];
      if (!accepted || accepted.length === 0) continue;
      const f = out[k];
      const values = got[k] ?? [];
      f.products++;
      if (values.length > 0) f.covered++;
      for (const v of k === "colour" ? values.slice(0, 1) : values) {
        f.values++;
        if (accepted.includes(v)) f.correct++;
      }
    }
  }
  return out;
}

/**
 * Measured 2026-11-24 (issue 14) on the first 8,000 demo products (3,500 from Fashion Product Images, 3,500 from
 * Myntra). Held just under the measured values; raise them when the extraction improves, never lower them to let a
 * change pass. The text reading's remaining errors are mostly the data sets' own labels: products named "Flats"
 * filed under Heels, "Kids Boys" shirts under Men, "Lounge Pants" and "Sports Shoes" with usage Casual.
 */
const MEASURED = {
  catalog: {
    colour: { precision: 0.995, coverage: 0.995 },
    articleType: { precision: 0.996, coverage: 0.998 },
    season: { precision: 0.998, coverage: 0.998 },
    occasion: { precision: 0.998, coverage: 0.998 },
    gender: { precision: 0.998, coverage: 0.998 },
    ageGroup: { precision: 0.998, coverage: 0.998 },
  },
  text: {
    colour: { precision: 0.945, coverage: 0.924 },
    articleType: { precision: 0.964, coverage: 0.956 },
    season: { precision: 0.24, coverage: 0.004 },
    occasion: { precision: 0.905, coverage: 0.109 },
    gender: { precision: 0.997, coverage: 0.861 },
    ageGroup: { precision: 0.922, coverage: 0.085 },
  },
} satisfies Record<"catalog" | "text", Record<Judged, { precision: number; coverage: number }>>;

describe("on the real demo catalog", () => {
  let products: Product[];
  beforeAll(() => {
    products = demoProducts(8000);
  }, 120_000);

  test("every colour and article type of the data set is accounted for", () => {
    for (const { name } of colorTable()) expect(Object.keys(COLOUR_TRUTH), name).toContain(keyOf(name));
    const unknownTypes = new Map<string, number>();
    for (const p of products) {
      const type = tagValues(p, "type")[0];
      if (p.id.startsWith("fpi-") && type && !(type in TYPE_TRUTH)) unknownTypes.set(type, (unknownTypes.get(type) ?? 0) + 1);
    }
    // The types judged by their unknown key are the data set's rare ones: under 3% of its products.
    const fpi = products.filter((p) => p.id.startsWith("fpi-")).length;
    expect([...unknownTypes.values()].reduce((a, b) => a + b, 0) / fpi).toBeLessThan(0.03);
  });

  test("precision and coverage where the data sets state the answer (printed, and held)", () => {
    const started = performance.now();
    const figures = { catalog: measure(products, (p) => p), text: measure(products, textOnly) };
    const perProduct = (performance.now() - started) / (2 * products.length);
    const lines = (["catalog", "text"] as const).flatMap((mode) =>
      JUDGED.map((k) => {
        const f = figures[mode][k];
        return `  ${mode.padEnd(7)} ${k.padEnd(11)} precision ${precision(f).toFixed(3)}  coverage ${coverage(f).toFixed(3)}  (${f.products} products, ${f.values} values judged)`;
      }),
    );
    console.log(`text attributes on ${products.length} demo products (${perProduct.toFixed(3)} ms per product):\n${lines.join("\n")}`);
    for (const mode of ["catalog", "text"] as const) {
      for (const k of JUDGED) {
        const f = figures[mode][k];
        expect(precision(f), `${mode} ${k} precision`).toBeGreaterThanOrEqual(MEASURED[mode][k].precision);
        expect(coverage(f), `${mode} ${k} coverage`).toBeGreaterThanOrEqual(MEASURED[mode][k].coverage);
      }
    }
  }, 120_000);
});
