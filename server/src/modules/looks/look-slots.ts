/*
 * What a look is made of, as data: the kind of garment each category is, and for each kind of source product
 * the outfits ("templates") that complete it, slot by slot. A slot names the kinds that can fill it; an
 * optional one is filled only when a good piece exists. Several templates per kind give a pair of shoes both a
 * western and an ethnic outfit, and a necklace a dress or a top and a bottom; the gender and occasion rules
 * (look-rules.ts) then keep each outfit coherent. Categories not listed (innerwear, nightwear, beauty, home)
 * have no looks: nobody completes the look of a lipstick.
 *
 * A category matches by name, the leaf first, then its parents: "Footwear > Shoes > Casual Shoes" is footwear
 * by its leaf; "Clothing > … > Tops > Dumdaarcom Tops" by a parent. Names compare in lower case. Broad parents
 * ("Topwear", "Bags") are not listed: under them sit suspenders and trolley bags, which no outfit wants.
 */

export const KIND_CATEGORIES = {
  top: [
    "tshirts",
    "shirts",
    "tops",
    "tunics",
    "sweatshirts",
    "sweaters",
    "polos & tshirts",
    "shirts tops & tunics",
    "casual & party wear shirts",
    "formal shirts",
    "track tops",
    "kaftans",
    "sweaters & pullovers",
  ],
  kurta: ["kurtas", "kurtis", "kurtas & kurtis"],
  outerwear: [
    "jackets",
    "blazers",
    "waistcoat",
    "waistcoats",
    "nehru jackets",
    "shrug",
    "shrugs & jackets",
    "coats",
    "winter jackets",
    "windcheaters",
    "cardigans",
    "suits & blazers",
  ],
  // Rain gear goes over jeans and a top, not over a dress, a sari or a suit: a kind of its own, kept out of those looks.
  rainwear: ["rain jacket", "raincoats"],
  bottom: ["jeans", "trousers", "shorts", "skirts", "capris", "jeggings", "track pants", "cargos"],
  leggings: ["leggings", "leggings & jeggings", "legging jegging", "tights"],
  "ethnic-bottom": ["salwar", "churidar", "patiala", "palazzos", "harem pants", "salwar and dupatta", "ethnic bottoms"],
  dress: ["dresses", "jumpsuit", "jumpsuits", "rompers", "dress"],
  saree: ["sarees", "saree", "lehenga choli", "lehenga cholis"],
  set: ["kurta sets", "clothing set", "suits", "tracksuits", "track suits"],
  dupatta: ["dupatta", "dupattas"],
  footwear: [
    "casual shoes",
    "sports shoes",
    "formal shoes",
    "boots",
    "heels",
    "flats",
    "loafers",
    "ballerinas",
    "wedges",
    "canvas",
    "sandals",
    "sports sandals",
    "flip flops",
    "slippers & flip flops",
    "school shoes",
    "shoes",
    "sandal",
    "footwear",
  ],
  bag: [
    "handbags",
    "clutches",
    "backpacks",
    "laptop bag",
    "messenger bag",
    "waist pouch",
    "sling bags",
    "hand bags",
    "rucksacks",
    "pouches and potlis",
  ],
  watch: ["watches", "wrist watches"],
  jewellery: [
    "earrings",
    "necklace and chains",
    "pendant",
    "ring",
    "rings",
    "bangle",
    "bracelet",
    "bracelets",
    "jewellery set",
    "necklaces",
    "pendants & lockets",
    "jewellery",
  ],
  eyewear: ["sunglasses", "eyewear"],
  belt: ["belts"],
  headwear: ["caps", "hat", "headband", "headwear"],
  scarf: ["scarves", "stoles", "mufflers", "scarves & stoles"],
  tie: ["ties", "pocket squares", "cufflinks", "ties and cufflinks"],
  wallet: ["wallets"],
  socks: ["socks"],
} as const satisfies Record<string, readonly string[]>;

export type Kind = keyof typeof KIND_CATEGORIES;

/**
 * Kinds nobody wears for sport: one that states no usage is taken as fit for every occasion but sports, so a
 * dress whose catalog says nothing is still never paired with running shoes. Tracksuits are sets, so sets are
 * not listed; a piece of these kinds that states sports (a tennis dress) keeps it.
 */
export const NEVER_SPORTS: ReadonlySet<Kind> = new Set<Kind>(["dress", "saree", "kurta", "ethnic-bottom", "dupatta", "jewellery", "tie"]);

export interface Slot {
  /** What the slot is called in answers (`internalCategory`) and explanations. */
  name: string;
  kinds: readonly Kind[];
  optional?: boolean;
}

const ACCESSORIES: readonly Kind[] = ["bag", "watch", "belt", "eyewear", "jewellery", "headwear", "scarf"];
const WESTERN_BOTTOMS: readonly Kind[] = ["bottom", "leggings"];
const CASUAL_OUTERWEAR: readonly Kind[] = ["outerwear", "rainwear"];
const ETHNIC_BOTTOMS: readonly Kind[] = ["ethnic-bottom", "leggings"];

const slot = (name: string, kinds: readonly Kind[], optional = false): Slot => ({ name, kinds, ...(optional ? { optional } : {}) });

/** An outfit of western separates around an accessory or a pair of shoes. */
const WESTERN_OUTFIT = [slot("top", ["top"]), slot("bottom", WESTERN_BOTTOMS), slot("shoes", ["footwear"])];
const DRESS_OUTFIT = [slot("dress", ["dress"]), slot("shoes", ["footwear"])];
const ETHNIC_OUTFIT = [slot("top", ["kurta"]), slot("bottom", ETHNIC_BOTTOMS), slot("shoes", ["footwear"])];
const ACCESSORY_TEMPLATES = [WESTERN_OUTFIT, DRESS_OUTFIT, ETHNIC_OUTFIT];

/** Per kind of source product, its templates, best first; slots are filled in their order (required ones first). */
export const LOOK_TEMPLATES: Readonly<Partial<Record<Kind, readonly (readonly Slot[])[]>>> = {
  top: [
    [
      slot("bottom", WESTERN_BOTTOMS),
      slot("shoes", ["footwear"]),
      slot("outerwear", CASUAL_OUTERWEAR, true),
      slot("accessory", ACCESSORIES, true),
    ],
  ],
  kurta: [
    [
      slot("bottom", [...ETHNIC_BOTTOMS, "bottom"]),
      slot("shoes", ["footwear"]),
      slot("dupatta", ["dupatta", "scarf"], true),
      slot("accessory", ["jewellery", "bag", "watch"], true),
    ],
  ],
  outerwear: [[slot("top", ["top"]), slot("bottom", WESTERN_BOTTOMS), slot("shoes", ["footwear"]), slot("accessory", ACCESSORIES, true)]],
  rainwear: [[slot("top", ["top"]), slot("bottom", WESTERN_BOTTOMS), slot("shoes", ["footwear"]), slot("accessory", ACCESSORIES, true)]],
  bottom: [
    [slot("top", ["top"]), slot("shoes", ["footwear"]), slot("outerwear", CASUAL_OUTERWEAR, true), slot("accessory", ACCESSORIES, true)],
  ],
  leggings: [
    [
      slot("top", ["kurta"]),
      slot("shoes", ["footwear"]),
      slot("dupatta", ["dupatta", "scarf"], true),
      slot("accessory", ["jewellery", "bag"], true),
    ],
    [slot("top", ["top"]), slot("shoes", ["footwear"]), slot("outerwear", CASUAL_OUTERWEAR, true), slot("accessory", ACCESSORIES, true)],
  ],
  "ethnic-bottom": [
    [
      slot("top", ["kurta"]),
      slot("shoes", ["footwear"]),
      slot("dupatta", ["dupatta", "scarf"], true),
      slot("accessory", ["jewellery", "bag"], true),
    ],
  ],
  dress: [
    [
      slot("shoes", ["footwear"]),
      slot("bag", ["bag", "jewellery"]),
      slot("outerwear", ["outerwear"], true),
      slot("accessory", ["watch", "eyewear", "jewellery", "headwear"], true),
    ],
  ],
  saree: [[slot("shoes", ["footwear"]), slot("bag", ["bag"]), slot("jewellery", ["jewellery"], true), slot("watch", ["watch"], true)]],
  set: [
    [
      slot("shoes", ["footwear"]),
      slot("accessory", ["bag", "jewellery", "watch", "belt", "eyewear"]),
      slot("dupatta", ["dupatta", "scarf"], true),
    ],
  ],
  dupatta: [
    [slot("top", ["kurta"]), slot("bottom", ETHNIC_BOTTOMS), slot("shoes", ["footwear"]), slot("accessory", ["jewellery", "bag"], true)],
  ],
  footwear: [
    [
      slot("top", ["top"]),
      slot("bottom", WESTERN_BOTTOMS),
      slot("outerwear", CASUAL_OUTERWEAR, true),
      slot("accessory", ACCESSORIES, true),
    ],
    [slot("dress", ["dress"]), slot("bag", ["bag", "jewellery"], true), slot("outerwear", ["outerwear"], true)],
    [
      slot("top", ["kurta"]),
      slot("bottom", ETHNIC_BOTTOMS),
      slot("dupatta", ["dupatta", "scarf"], true),
      slot("accessory", ["jewellery", "bag"], true),
    ],
  ],
  bag: ACCESSORY_TEMPLATES,
  watch: ACCESSORY_TEMPLATES,
  jewellery: ACCESSORY_TEMPLATES,
  eyewear: ACCESSORY_TEMPLATES,
  belt: [WESTERN_OUTFIT],
  headwear: [WESTERN_OUTFIT, DRESS_OUTFIT],
  scarf: ACCESSORY_TEMPLATES,
  tie: [[slot("shirt", ["top"]), slot("bottom", ["bottom"]), slot("shoes", ["footwear"]), slot("outerwear", ["outerwear"], true)]],
  wallet: [WESTERN_OUTFIT],
  socks: [[slot("shoes", ["footwear"]), slot("bottom", WESTERN_BOTTOMS), slot("top", ["top"])]],
};

const KIND_BY_CATEGORY = new Map<string, Kind>(
  (Object.entries(KIND_CATEGORIES) as [Kind, readonly string[]][]).flatMap(([kind, names]) => names.map((name) => [name, kind] as const)),
);

/** The kind of garment a product's category path names (leaf first), or null for a category without looks. */
export function kindOf(categories: readonly string[] | undefined): Kind | null {
  if (!categories) return null;
  for (let i = categories.length - 1; i >= 0; i--) {
    const kind = KIND_BY_CATEGORY.get(categories[i]!.trim().toLowerCase());
    if (kind) return kind;
  }
  return null;
}
