/*
 * Category vocabulary. styles.csv defines a three-level tree (masterCategory > subCategory > articleType);
 * Myntra and Flipkart names are classified into the same article types so one facet value means one thing
 * across sources. Types styles.csv lacks (palazzos, curtains, ...) get a parent in the same style.
 */

export type ImageFamily = "top" | "trousers" | "dress" | "shoe" | "bag" | "watch" | "cap" | "scarf" | "jewellery" | "eyewear" | "box";

export const IMAGE_FAMILIES: readonly ImageFamily[] = [
  "top",
  "trousers",
  "dress",
  "shoe",
  "bag",
  "watch",
  "cap",
  "scarf",
  "jewellery",
  "eyewear",
  "box",
];

/** Parent (masterCategory, subCategory) of every article type the classifier can return. */
const PARENTS: Readonly<Record<string, readonly [string, string]>> = {
  Tshirts: ["Apparel", "Topwear"],
  Shirts: ["Apparel", "Topwear"],
  Tops: ["Apparel", "Topwear"],
  Kurtas: ["Apparel", "Topwear"],
  Kurtis: ["Apparel", "Topwear"],
  Tunics: ["Apparel", "Topwear"],
  Sweatshirts: ["Apparel", "Topwear"],
  Sweaters: ["Apparel", "Topwear"],
  Jackets: ["Apparel", "Topwear"],
  "Rain Jacket": ["Apparel", "Topwear"],
  Blazers: ["Apparel", "Topwear"],
  Waistcoat: ["Apparel", "Topwear"],
  "Nehru Jackets": ["Apparel", "Topwear"],
  Shrug: ["Apparel", "Topwear"],
  Dupatta: ["Apparel", "Topwear"],
  Suits: ["Apparel", "Topwear"],
  Rompers: ["Apparel", "Topwear"],
  "Lehenga Choli": ["Apparel", "Topwear"],
  Jeans: ["Apparel", "Bottomwear"],
  Jeggings: ["Apparel", "Bottomwear"],
  Trousers: ["Apparel", "Bottomwear"],
  "Track Pants": ["Apparel", "Bottomwear"],
  Tracksuits: ["Apparel", "Bottomwear"],
  Shorts: ["Apparel", "Bottomwear"],
  Skirts: ["Apparel", "Bottomwear"],
  Leggings: ["Apparel", "Bottomwear"],
  Palazzos: ["Apparel", "Bottomwear"],
  Capris: ["Apparel", "Bottomwear"],
  Salwar: ["Apparel", "Bottomwear"],
  Churidar: ["Apparel", "Bottomwear"],
  Patiala: ["Apparel", "Bottomwear"],
  Tights: ["Apparel", "Bottomwear"],
  Swimwear: ["Apparel", "Bottomwear"],
  Dresses: ["Apparel", "Dress"],
  Jumpsuit: ["Apparel", "Dress"],
  Sarees: ["Apparel", "Saree"],
  "Dress Material": ["Apparel", "Dress Material"],
  "Kurta Sets": ["Apparel", "Apparel Set"],
  "Clothing Set": ["Apparel", "Apparel Set"],
  Bra: ["Apparel", "Innerwear"],
  Briefs: ["Apparel", "Innerwear"],
  Trunk: ["Apparel", "Innerwear"],
  Boxers: ["Apparel", "Innerwear"],
  "Innerwear Vests": ["Apparel", "Innerwear"],
  Camisoles: ["Apparel", "Innerwear"],
  Shapewear: ["Apparel", "Innerwear"],
  Nightdress: ["Apparel", "Loungewear and Nightwear"],
  "Night suits": ["Apparel", "Loungewear and Nightwear"],
  "Lounge Pants": ["Apparel", "Loungewear and Nightwear"],
  "Bath Robe": ["Apparel", "Loungewear and Nightwear"],
  "Baby Dolls": ["Apparel", "Loungewear and Nightwear"],
  "Casual Shoes": ["Footwear", "Shoes"],
  "Sports Shoes": ["Footwear", "Shoes"],
  "Formal Shoes": ["Footwear", "Shoes"],
  Boots: ["Footwear", "Shoes"],
  Heels: ["Footwear", "Shoes"],
  Flats: ["Footwear", "Shoes"],
  Sandals: ["Footwear", "Sandal"],
  "Sports Sandals": ["Footwear", "Sandal"],
  "Flip Flops": ["Footwear", "Flip Flops"],
  Socks: ["Accessories", "Socks"],
  "Shoe Accessories": ["Accessories", "Shoe Accessories"],
  Watches: ["Accessories", "Watches"],
  Handbags: ["Accessories", "Bags"],
  Clutches: ["Accessories", "Bags"],
  Backpacks: ["Accessories", "Bags"],
  "Duffel Bag": ["Accessories", "Bags"],
  "Laptop Bag": ["Accessories", "Bags"],
  "Messenger Bag": ["Accessories", "Bags"],
  "Trolley Bag": ["Accessories", "Bags"],
  "Waist Pouch": ["Accessories", "Bags"],
  "Mobile Pouch": ["Accessories", "Bags"],
  Wallets: ["Accessories", "Wallets"],
  Belts: ["Accessories", "Belts"],
  Sunglasses: ["Accessories", "Eyewear"],
  Caps: ["Accessories", "Headwear"],
  Hat: ["Accessories", "Headwear"],
  Headband: ["Accessories", "Headwear"],
  Ties: ["Accessories", "Ties"],
  "Pocket Squares": ["Accessories", "Ties"],
  Cufflinks: ["Accessories", "Cufflinks"],
  Scarves: ["Accessories", "Scarves"],
  Stoles: ["Accessories", "Stoles"],
  Mufflers: ["Accessories", "Mufflers"],
  Gloves: ["Accessories", "Gloves"],
  Umbrellas: ["Accessories", "Umbrellas"],
  Earrings: ["Accessories", "Jewellery"],
  "Necklace and Chains": ["Accessories", "Jewellery"],
  Pendant: ["Accessories", "Jewellery"],
  Ring: ["Accessories", "Jewellery"],
  Bangle: ["Accessories", "Jewellery"],
  Bracelet: ["Accessories", "Jewellery"],
  "Jewellery Set": ["Accessories", "Jewellery"],
  "Hair Accessory": ["Accessories", "Accessories"],
  "Key chain": ["Accessories", "Accessories"],
  "Water Bottle": ["Accessories", "Water Bottle"],
  "Accessory Gift Set": ["Accessories", "Accessories"],
  Rakhi: ["Accessories", "Jewellery"],
  "Phone Cases": ["Accessories", "Gadget Accessories"],
  "Headphones and Speakers": ["Electronics", "Audio"],
  "Perfume and Body Mist": ["Personal Care", "Fragrance"],
  Deodorant: ["Personal Care", "Fragrance"],
  "Fragrance Gift Set": ["Personal Care", "Fragrance"],
  Lipstick: ["Personal Care", "Lips"],
  "Lip Gloss": ["Personal Care", "Lips"],
  "Lip Liner": ["Personal Care", "Lips"],
  "Lip Care": ["Personal Care", "Lips"],
  "Nail Polish": ["Personal Care", "Nails"],
  "Kajal and Eyeliner": ["Personal Care", "Makeup"],
  Mascara: ["Personal Care", "Eyes"],
  Eyeshadow: ["Personal Care", "Makeup"],
  "Foundation and Primer": ["Personal Care", "Makeup"],
  Compact: ["Personal Care", "Makeup"],
  "Highlighter and Blush": ["Personal Care", "Makeup"],
  Concealer: ["Personal Care", "Makeup"],
  "Makeup Remover": ["Personal Care", "Makeup"],
  "Face Wash and Cleanser": ["Personal Care", "Skin Care"],
  "Face Moisturisers": ["Personal Care", "Skin"],
  Sunscreen: ["Personal Care", "Skin Care"],
  "Face Serum and Gel": ["Personal Care", "Skin"],
  "Mask and Peel": ["Personal Care", "Skin"],
  Toner: ["Personal Care", "Skin Care"],
  "Body Lotion": ["Personal Care", "Bath and Body"],
  "Body Wash and Scrub": ["Personal Care", "Bath and Body"],
  "Hair Colour": ["Personal Care", "Hair"],
  "Hair Care": ["Personal Care", "Hair"],
  "Mens Grooming Kit": ["Personal Care", "Skin Care"],
  "Beauty Accessory": ["Personal Care", "Beauty Accessories"],
  "Beauty Gift Set": ["Personal Care", "Gift Sets"],
  "Face Scrub and Exfoliator": ["Personal Care", "Skin Care"],
  "Personal Care Appliances": ["Personal Care", "Appliances"],
  "Cushion Covers": ["Home", "Home Furnishing"],
  Curtains: ["Home", "Home Furnishing"],
  "Bed Linen": ["Home", "Home Furnishing"],
  "Rugs and Carpets": ["Home", "Home Furnishing"],
  "Table Linen": ["Home", "Home Furnishing"],
  Towels: ["Home", "Home Furnishing"],
  Tableware: ["Home", "Kitchen and Dining"],
  "Lamps and Lighting": ["Home", "Home Decor"],
  "Decor Accents": ["Home", "Home Decor"],
  "Wall Decor": ["Home", "Home Decor"],
  "Storage and Organisers": ["Home", "Storage"],
  "Bath Accessories": ["Home", "Bath"],
};

/**
 * Name words -> article type. Phrases are matched as whole words on lowercase text (plurals are added
 * automatically). The match that ends last in the name wins, because the head noun comes last ("Shirt
 * Dress" is a dress); on a tie the longer phrase wins ("Sports Sandals" over "Sandals"). Matches after
 * "with" lose to earlier ones ("Kurta Set with Jacket"). Hyphenated words also match by their last part
 * ("crop-top"), with lower priority than the whole word ("t-shirt" over "shirt").
 */
const RULES: ReadonlyArray<readonly [string, string]> = [
  ["t-shirt|tshirt|tee|polo|polo t-shirt|polo shirt|henley|jersey|t shirt", "Tshirts"],
  ["shirt|shacket", "Shirts"],
  ["top|crop top|bodysuit|blouse|tank top|cami top|tube top", "Tops"],
  ["kurta|pathani kurta", "Kurtas"],
  ["kurti", "Kurtis"],
  ["tunic|kaftan top|kaftan", "Tunics"],
  ["sweatshirt|hoodie|hoodie sweatshirt", "Sweatshirts"],
  ["sweater|pullover|cardigan|jumper", "Sweaters"],
  ["jacket|bomber|puffer|overcoat|coat|parka|windcheater|gilet|windbuster", "Jackets"],
  ["rain jacket|rainjacket|raincoat", "Rain Jacket"],
  ["blazer|bandhgala", "Blazers"],
  ["waistcoat", "Waistcoat"],
  ["nehru jacket", "Nehru Jackets"],
  ["shrug", "Shrug"],
  ["dupatta", "Dupatta"],
  ["suit|tuxedo", "Suits"],
  ["romper|playsuit|dungaree|dungree|one-piece|onesie", "Rompers"],
  ["lehenga choli|lehenga|lehenga choli and duppta set", "Lehenga Choli"],
  ["jeans|jean|denims", "Jeans"],
  ["jegging|tregging", "Jeggings"],
  ["trouser|trouders|chino|pants|pant|cargo|slacks|jogger pants|khakis|jodhpuris", "Trousers"],
  ["track pants|trackpants|track pant|trackpant|jogger|sweatpants", "Track Pants"],
  ["tracksuit", "Tracksuits"],
  ["shorts|short|bermuda|boyshorts", "Shorts"],
  ["skirt|skort|sarong", "Skirts"],
  ["leggings|legging|churidar leggings", "Leggings"],
  ["palazzo|palazzos|culotte|sharara", "Palazzos"],
  ["capri|capris", "Capris"],
  ["salwar", "Salwar"],
  ["churidar", "Churidar"],
  ["patiala", "Patiala"],
  ["tights|stockings", "Tights"],
  ["swimwear|swimsuit|bikini|swim-dress|swimware|monokini", "Swimwear"],
  ["dress|gown|maxi", "Dresses"],
  ["jumpsuit", "Jumpsuit"],
  ["saree|sari", "Sarees"],
  ["dress material|unstitched", "Dress Material"],
  ["kurta set|kurta with|kurti with|kurta and|sherwani set|sherwani|salwar suit", "Kurta Sets"],
  ["clothing set|top and pyjama set|top & capri set|co-ord|co-ords", "Clothing Set"],
  ["bra|bralette|lingerie set", "Bra"],
  ["brief|briefs|panty|panties|hipster|bikini briefs|thong", "Briefs"],
  ["trunk", "Trunk"],
  ["boxer|boxers", "Boxers"],
  ["vest|innerwear vest|undershirt", "Innerwear Vests"],
  ["camisole|slip", "Camisoles"],
  ["shapewear", "Shapewear"],
  ["nightdress|nighty|nightie|nightgown|night dress", "Nightdress"],
  ["night suit|nightsuit|pyjama set|pajama set", "Night suits"],
  ["lounge pants|pyjama|pajama|lounge shorts", "Lounge Pants"],
  ["bath robe|bathrobe|robe", "Bath Robe"],
  ["baby doll|babydoll", "Baby Dolls"],
  [
    "sneaker|sneakers|casual shoe|casual shoes|shoe|shoes|slip-on shoes|slip-on|slip-ons|loafer|loafers|boat shoes|" +
      "espadrille|espadrilles|moccasin|moccasins|mojari|mojaris|jutti|juttis|clog|clogs|lace-up|lace-ups|lace up|canvas shoes",
    "Casual Shoes",
  ],
  [
    "sports shoe|sports shoes|running shoe|running shoes|training shoe|training shoes|walking shoe|walking shoes|" +
      "football shoe|football shoes|gym shoes|basketball shoe|basketball shoes|tennis shoes|badminton shoes|" +
      "cricket shoes|trekking shoes|hiking shoes|spikes|soes",
    "Sports Shoes",
  ],
  [
    "formal shoe|formal shoes|semi formal shoe|semi formal shoes|derby|derbys|derby shoes|oxford|oxfords|brogues|" +
      "monk|monks|monk strap|monk straps",
    "Formal Shoes",
  ],
  ["boots|chelsea boots|ankle boots", "Boots"],
  ["heels|heel sandals|pumps|wedges|stilettos|peep toes|platforms|flatforms", "Heels"],
  ["flats|ballerinas|bellies|mules|ballet flats", "Flats"],
  ["sandal|floater|gladiator", "Sandals"],
  ["sports sandal", "Sports Sandals"],
  ["flip flop|flip-flop|flipflop|slipper|slider|chappal|thong flip-flops", "Flip Flops"],
  ["socks|shoe liner|booties", "Socks"],
  ["shoe laces|shoe care|shoe polish|shoe shiner|insoles", "Shoe Accessories"],
  ["watch|watches|smart watch|smartwatch", "Watches"],
  ["bag|handbag|shoulder bag|sling bag|tote|tote bag|hobo bag|satchel|handheld bag|bucket bag|baguette", "Handbags"],
  ["clutch|clutches", "Clutches"],
  ["backpack|rucksack|laptop backpack|school bag", "Backpacks"],
  ["duffel bag|duffle bag|duffel|gym bag|travel bag", "Duffel Bag"],
  ["laptop bag|laptop sleeve|tablet sleeve", "Laptop Bag"],
  ["messenger bag", "Messenger Bag"],
  ["trolley bag|trolley suitcase|suitcase|luggage|cabin trolley", "Trolley Bag"],
  ["waist pouch|waist bag|fanny pack", "Waist Pouch"],
  ["mobile pouch|pouch|pouches", "Mobile Pouch"],
  ["wallet|purse|card holder|money clip", "Wallets"],
  ["belt", "Belts"],
  ["sunglasses|aviator|wayfarer|eyeglasses|spectacle frame", "Sunglasses"],
  ["cap|baseball cap|snapback", "Caps"],
  ["hat|beanie|fedora", "Hat"],
  ["headband|hair band", "Headband"],
  ["tie", "Ties"],
  ["pocket square", "Pocket Squares"],
  ["cufflink|tie pin", "Cufflinks"],
  ["scarf|scarves", "Scarves"],
  ["stole|shawl|poncho", "Stoles"],
  ["muffler", "Mufflers"],
  ["gloves", "Gloves"],
  ["umbrella", "Umbrellas"],
  ["earring|jhumka|jhumki|studs|chandbali|chandbalis|ear cuff|hoops|drop earrings|danglers", "Earrings"],
  ["necklace|chain|choker|mangalsutra", "Necklace and Chains"],
  ["pendant|locket", "Pendant"],
  ["ring|finger ring|nose ring|nosepin|toe ring", "Ring"],
  ["bangle|kada|cuff", "Bangle"],
  ["bracelet|anklet", "Bracelet"],
  ["jewellery set|jewelry set|jewelery set|jewellery|jewelry", "Jewellery Set"],
  ["maang tikka|maang tika|brooch|brooches|hair clip|hair accessory|hair accessories|hair pin|juda pin", "Hair Accessory"],
  ["key chain|keychain|key ring", "Key chain"],
  ["water bottle|bottle|sipper", "Water Bottle"],
  ["gift set|accessory gift set|gift box", "Accessory Gift Set"],
  ["rakhi|rakhee", "Rakhi"],
  ["case cover|phone case|mobile cover|back cover|iphone case", "Phone Cases"],
  ["earphones|headphones|earbuds|headset|speaker", "Headphones and Speakers"],
  ["perfume|edp|edt|eau de parfum|eau de toilette|body mist|fragrance|attar|body perfume|parfum", "Perfume and Body Mist"],
  ["deodorant|deo|antiperspirant|roll-on", "Deodorant"],
  ["lipstick|lip colour|lip color|lip crayon", "Lipstick"],
  ["lip gloss|lip shine|lip gelato|lip lacquer", "Lip Gloss"],
  ["lip liner", "Lip Liner"],
  ["lip balm|lip care|lip scrub", "Lip Care"],
  ["nail polish|nail paint|nail enamel|nail lacquer", "Nail Polish"],
  ["kajal|eyeliner|eye liner|kohl|liner ink|microliner ink|eye definer|kajalink", "Kajal and Eyeliner"],
  ["mascara", "Mascara"],
  ["eyeshadow|eye shadow|eyeshadow palette", "Eyeshadow"],
  ["foundation|primer|bb cream|cc cream", "Foundation and Primer"],
  ["compact|face powder|loose powder", "Compact"],
  ["highlighter|blush|blusher|bronzer|cheek powder|cheekpowder|illuminator", "Highlighter and Blush"],
  ["concealer", "Concealer"],
  ["makeup remover|micellar water", "Makeup Remover"],
  ["face wash|cleanser|cleansing", "Face Wash and Cleanser"],
  ["moisturiser|moisturizer|moisturising cream|moisturizing cream|cream|creme|elixir", "Face Moisturisers"],
  ["sunscreen|sunblock|spf lotion", "Sunscreen"],
  ["serum|face gel", "Face Serum and Gel"],
  ["face mask|sheet mask|masque|peel off|peel-off mask|face pack|mask", "Mask and Peel"],
  ["face scrub|scrub|exfoliator", "Face Scrub and Exfoliator"],
  ["beauty kit|beauty set|makeup kit|skin care regime|care kit|bestseller kit|sale limited kit|kit", "Beauty Gift Set"],
  ["hair dryer|hair curler|hair crimper|hair straightener|straightening brush|epilator|corn styler", "Personal Care Appliances"],
  ["toner|facial mist|face mist", "Toner"],
  ["body lotion|body butter|body cream", "Body Lotion"],
  ["body wash|shower gel|body scrub|soap|bath salt|wash", "Body Wash and Scrub"],
  ["hair colour|hair color|hair dye", "Hair Colour"],
  [
    "shampoo|conditioner|hair oil|hair growth oil|hair serum|hair mask|hair spray|hair gel|hair wax|cream wax|" +
      "paste|hair styling fiber|hair care regime|hair care",
    "Hair Care",
  ],
  ["trimmer|shaver|grooming kit|shaving|beard oil|beard wash|beard", "Mens Grooming Kit"],
  ["makeup brush|makeup pouch|beauty blender|sponge|brush|brushes", "Beauty Accessory"],
  ["cushion cover|pillow cover|cushion|pillow", "Cushion Covers"],
  ["curtain|blinds", "Curtains"],
  ["bedsheet|bed sheet|dohar|comforter|quilt|duvet cover|duvet|blanket|bedding set|bed cover|diwan set", "Bed Linen"],
  ["rug|carpet|doormat|door mat|bath mat|bathmat|bath rug|floor mat|mat", "Rugs and Carpets"],
  ["table runner|runner|placemat|table cover|napkin|coaster|table linen", "Table Linen"],
  ["towel|bath towel|hand towel", "Towels"],
  ["bath accessories|soap dispenser|bath set", "Bath Accessories"],
  [
    "mug|cup|glass|glasses|kulladh|jar|bowl|plate|platter|tray|dinner set|dishes|shakers|dispenser|tea set|" +
      "cutlery|jug|tumbler|lunch box|container|kettle|casserole",
    "Tableware",
  ],
  ["lamp|light|lighting|lantern|candle|candle holder|diya", "Lamps and Lighting"],
  [
    "showpiece|figurine|statue|idol|vase|planter|pot|plant|artificial flower|bonsai|flower|sculpture|decorative|" +
      "paper weight|book ends|bookends",
    "Decor Accents",
  ],
  ["wall clock|clock|photo frame|wall art|painting|poster|wall decal|wall sticker|wall shelf|wall shelves|mirror", "Wall Decor"],
  ["shelf|shelves|organiser|organizer|storage|bin|holder|tissue holder|stand|rack|basket", "Storage and Organisers"],
];

/** Word sequences that contain a type word without naming that type. */
const NOT_A_TYPE = /\btie(?:\s*(?:&|and)\s*|[- ])dye\b|\btie[- ](?:up|knot)\b|\b(?:belt|waist) loops?\b/g;

function pluralForms(phrase: string): string[] {
  const words = phrase.split(" ");
  const last = words[words.length - 1]!;
  const head = words.slice(0, -1);
  const forms = new Set([last, `${last}s`, `${last}es`]);
  if (/[^aeiou]y$/.test(last)) forms.add(`${last.slice(0, -1)}ies`);
  return [...forms].map((f) => [...head, f].join(" "));
}

/** phrase (space-separated words) -> article type; the longest phrase has MAX_PHRASE_WORDS words. */
const PHRASES: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  for (const [list, type] of RULES) {
    if (!(type in PARENTS)) throw new Error(`category rule for unknown article type ${type}`);
    for (const phrase of list.split("|")) {
      for (const form of pluralForms(phrase.trim())) if (!m.has(form)) m.set(form, type);
    }
  }
  return m;
})();
const MAX_PHRASE_WORDS = Math.max(...[...PHRASES.keys()].map((k) => k.split(" ").length));

/**
 * The article type a product name (or category label) names, or undefined. Used for Myntra and Flipkart
 * rows, which carry no article type of their own.
 */
export function classifyArticleType(text: string): string | undefined {
  const words: string[] =
    text
      .toLowerCase()
      .replace(/[’]/g, "'")
      .replace(NOT_A_TYPE, " ")
      .match(/[a-z0-9][a-z0-9'-]*|&/g) ?? [];
  const withAt = words.indexOf("with");
  let best: { end: number; len: number; beforeWith: boolean; type: string } | undefined;
  const consider = (type: string | undefined, start: number, end: number, len: number) => {
    if (type === undefined) return;
    const cand = { end, len, beforeWith: withAt < 0 || start < withAt, type };
    if (!best || better(cand, best)) best = cand;
  };
  for (let start = 0; start < words.length; start++) {
    let phrase = "";
    for (let n = 1; n <= MAX_PHRASE_WORDS && start + n <= words.length; n++) {
      const w = words[start + n - 1]!;
      phrase = n === 1 ? w : `${phrase} ${w}`;
      // Character length ranks "t-shirt" over "shirt" and "sports sandals" over "sandals".
      consider(PHRASES.get(phrase), start, start + n, phrase.length);
    }
    const dash = words[start]!.lastIndexOf("-");
    if (dash > 0) consider(PHRASES.get(words[start]!.slice(dash + 1)), start, start + 1, 0);
  }
  if (!best && words.some((w) => /^(?:iphone|phone|mobile)$/.test(w)) && words.some((w) => /^cases?$/.test(w))) {
    // "iPhone 8 and SE Case": the model words sit between "iPhone" and "Case".
    return "Phone Cases";
  }
  return best?.type;
}

function better(a: { end: number; len: number; beforeWith: boolean }, b: { end: number; len: number; beforeWith: boolean }): boolean {
  if (a.beforeWith !== b.beforeWith) return a.beforeWith;
  if (a.end !== b.end) return a.end > b.end;
  return a.len > b.len;
}

/** Root-first path of an article type known to the classifier, with a repeated level dropped. */
export function categoryPathOf(articleType: string): string[] | undefined {
  const parent = PARENTS[articleType];
  return parent ? hierarchy([parent[0], parent[1], articleType]) : undefined;
}

/**
 * Root-first hierarchy without empty or repeated consecutive levels: styles.csv often repeats a level
 * ("Accessories > Watches > Watches"), which would make a useless facet level.
 */
export function hierarchy(levels: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of levels) {
    const level = raw.trim();
    if (level === "" || level === "NA") continue;
    if (out.length > 0 && out[out.length - 1]!.toLowerCase() === level.toLowerCase()) continue;
    out.push(level);
  }
  return out;
}

/** Everything the product builder needs to know about an article type. */
export interface ArticleProfile {
  family: ImageFamily;
  /** Whether garments of this type are sized by the body (drives size schemes). */
  sizing: "apparel" | "waist" | "shoe" | "bra" | "one-size" | "none";
  /** Synthetic price band in INR, used when a source has no price. */
  priceBand: readonly [number, number];
}

/**
 * Profile of any article type, including styles.csv types the classifier never returns; decided from the
 * type name and its parents so no table of all 143 types is needed.
 */
export function articleProfile(articleType: string, parents: readonly string[] = []): ArticleProfile {
  const cacheKey = `${articleType}\u0000${parents.join("\u0000")}`;
  let profile = PROFILE_CACHE.get(cacheKey);
  if (!profile) {
    profile = decideProfile(articleType, parents);
    // Bounded by the number of distinct (type, parents) pairs in the data: a few hundred.
    if (PROFILE_CACHE.size < 10_000) PROFILE_CACHE.set(cacheKey, profile);
  }
  return profile;
}

const PROFILE_CACHE = new Map<string, ArticleProfile>();

function decideProfile(articleType: string, parents: readonly string[]): ArticleProfile {
  const t = articleType.toLowerCase();
  const context = parents.join(" ").toLowerCase();
  const p = (family: ImageFamily, sizing: ArticleProfile["sizing"], lo: number, hi: number): ArticleProfile => ({
    family,
    sizing,
    priceBand: [lo, hi],
  });

  // Checked in this order: earlier tests are more specific ("Mascara" must not reach the scarf test).
  if (context.includes("personal care") || /\b(?:perfume|fragrance|deodorant)/.test(t)) {
    return /\b(?:perfume|fragrance)/.test(t) ? p("box", "none", 499, 4999) : p("box", "none", 149, 1499);
  }
  if (/\bwatch/.test(t)) return p("watch", "one-size", 999, 12999);
  if (/\bsunglass|\beyewear/.test(t)) return p("eyewear", "one-size", 799, 4999);
  if (/^socks$|\bbooties/.test(t)) return p("shoe", "one-size", 149, 599);
  if (/\bshoe accessor|\bshoe laces/.test(t)) return p("box", "none", 99, 499);
  if (/\bflip flop|\bsandal/.test(t)) return p("shoe", "shoe", 299, 1999);
  if (/\bheels|\bflats/.test(t)) return p("shoe", "shoe", 699, 2999);
  if (/\bshoe|\bboot/.test(t) || context.includes("footwear")) return p("shoe", "shoe", 1299, 5999);
  if (/\btrolley/.test(t)) return p("bag", "one-size", 2999, 9999);
  if (/\bbag|\bbackpack|\brucksack|\bclutch|\bpouch|\bsleeve|\bwallet|\bhandbag/.test(t)) {
    return p("bag", "one-size", 499, 4499);
  }
  if (/\bcaps?\b|\bhat\b|\bheadband/.test(t)) return p("cap", "one-size", 199, 999);
  if (/\bscar|\bstole|\bmuffler|\bdupatta|\bties?\b|\bpocket square|\bbelts?\b/.test(t)) {
    return p("scarf", "one-size", 249, 1499);
  }
  if (/earring|\bpendant|\bnecklace|\brings?\b|\bbangle|\bbracelet|\bjewell|\bcufflink|\bhair accessory|\bkey chain/.test(t)) {
    return p("jewellery", "one-size", 199, 2999);
  }
  if (/^bra$/.test(t)) return p("top", "bra", 299, 1499);
  if (/\bjeans|\bjeggings|\btrousers/.test(t)) return p("trousers", "waist", 799, 2999);
  if (/\bbrief|\btrunk|\bboxer|\bshapewear/.test(t)) return p("trousers", "apparel", 199, 899);
  if (
    /\bshorts|\btrack|\blegging|\bcapri|\bpatiala|\bsalwar|\bchuridar|\btights|\bstocking|\blounge pants|\bpalazzo|\brain trousers/.test(t)
  ) {
    return p("trousers", "apparel", 299, 1499);
  }
  if (/\bsaree|\blehenga|\bdress material/.test(t)) return p("dress", "one-size", 999, 6999);
  if (/\bkurta set|\bclothing set/.test(t)) return p("dress", "apparel", 1299, 4999);
  if (/\bdress|\bjumpsuit|\bromper|\bkurta|\bkurti|\btunic|\bskirt|\bnight|\brobe|\bbaby doll|\bswimwear/.test(t)) {
    return p("dress", "apparel", 599, 2999);
  }
  if (/\bjacket|\bblazer|\bcoat|\bsuits?\b|\bwaistcoat/.test(t)) return p("top", "apparel", 1499, 7999);
  if (/\bsweat|\bshrug/.test(t)) return p("top", "apparel", 799, 2999);
  if (context.includes("apparel") || /shirt|\btop|\bvest|\bcamisole|\bsuspender/.test(t)) {
    return p("top", "apparel", 399, 1999);
  }
  if (context.includes("home")) return p("box", "none", 299, 2999);
  if (/\bglove|\bumbrella|\bwater bottle/.test(t)) return p("box", "one-size", 199, 999);
  return p("box", "none", 299, 1999);
}
