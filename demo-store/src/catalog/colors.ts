/*
 * Colour vocabulary: the 47 base colours of styles.csv, Myntra's PrimaryColor values and the colour words
 * found in Myntra/Flipkart names, mapped to one canonical name and hex each. The hex values are what the
 * generated images are filled with, so this table is the ground truth for later colour extraction.
 */

/** Canonical colour name -> "#rrggbb". Names follow styles.csv where it has one. */
const CANONICAL: Readonly<Record<string, string>> = {
  Black: "#111111",
  White: "#fafafa",
  Blue: "#1f5fbf",
  "Navy Blue": "#1b2a4a",
  Brown: "#6b4226",
  Grey: "#8a8a8a",
  Red: "#c62828",
  Green: "#2e7d32",
  Pink: "#f06292",
  Purple: "#6a1b9a",
  Silver: "#c0c0c0",
  Yellow: "#fdd835",
  Beige: "#d9c8a9",
  Gold: "#c9a227",
  Maroon: "#6d1a2a",
  Orange: "#ef6c00",
  Olive: "#6b6b2a",
  Cream: "#f3ead3",
  Steel: "#7b8a99",
  Charcoal: "#36454f",
  Peach: "#ffcba4",
  "Off White": "#f0ece0",
  Skin: "#e8b896",
  Lavender: "#b4a7d6",
  "Grey Melange": "#a9a9a6",
  Khaki: "#c3b091",
  Magenta: "#c2185b",
  Teal: "#00808a",
  Tan: "#c19a6b",
  Mustard: "#d4a017",
  Bronze: "#a9713a",
  Copper: "#b46a3c",
  "Turquoise Blue": "#30c0c8",
  Rust: "#b7410e",
  Burgundy: "#800020",
  Metallic: "#9ea3a8",
  "Coffee Brown": "#4b3621",
  Mauve: "#b784a7",
  Rose: "#e8a0b0",
  Nude: "#e3bc9a",
  "Sea Green": "#2e8b57",
  "Mushroom Brown": "#a08f7d",
  Taupe: "#8b7d6b",
  "Lime Green": "#7cc242",
  "Fluorescent Green": "#39ff14",
  // Not in styles.csv, common in Myntra and Flipkart names.
  Coral: "#ff7f50",
  Fuchsia: "#d4147a",
  Violet: "#7f3fbf",
  "Rose Gold": "#b76e79",
  Gunmetal: "#53565b",
  Platinum: "#d9d9d6",
  "Camel Brown": "#a6764a",
  "Light Blue": "#8ec5e8",
  Turquoise: "#40e0d0",
  Transparent: "#e3eef2",
  Aqua: "#5fd3e0",
  Cherry: "#9b1b30",
};

/** "Multi" has no single colour: images use these stripes. */
const MULTI = ["#c62828", "#f9a825", "#1565c0"] as const;

// Lowercase spelling -> canonical name. Spellings map to the nearest styles.csv colour so facets stay small.
const ALIASES: Readonly<Record<string, string>> = {
  navy: "Navy Blue",
  "dark blue": "Navy Blue",
  "navy blue": "Navy Blue",
  "off white": "Off White",
  offwhite: "Off White",
  ivory: "Off White",
  golden: "Gold",
  "olive green": "Olive",
  "mustard yellow": "Mustard",
  "tan brown": "Tan",
  "charcoal grey": "Charcoal",
  "charcoal gray": "Charcoal",
  "teal blue": "Teal",
  "teal green": "Teal",
  "rust orange": "Rust",
  "rust red": "Rust",
  "rust brown": "Rust",
  "coral pink": "Coral",
  "coral red": "Coral",
  "coral orange": "Coral",
  "dusty pink": "Pink",
  "light pink": "Pink",
  "baby pink": "Pink",
  "hot pink": "Fuchsia",
  gray: "Grey",
  "light grey": "Grey",
  "dark grey": "Charcoal",
  "grey melange": "Grey Melange",
  melange: "Grey Melange",
  "sky blue": "Light Blue",
  "light blue": "Light Blue",
  "powder blue": "Light Blue",
  "turquoise blue": "Turquoise Blue",
  "sea blue": "Turquoise Blue",
  "dark green": "Green",
  "bottle green": "Green",
  "light green": "Lime Green",
  "lime green": "Lime Green",
  "sea green": "Sea Green",
  "fluorescent green": "Fluorescent Green",
  "neon green": "Fluorescent Green",
  "coffee brown": "Coffee Brown",
  coffee: "Coffee Brown",
  "mushroom brown": "Mushroom Brown",
  "camel brown": "Camel Brown",
  camel: "Camel Brown",
  "rose gold": "Rose Gold",
  wine: "Burgundy",
  "cherry red": "Cherry",
  almond: "Beige",
  alamond: "Beige",
  multi: "Multi",
  multicolor: "Multi",
  multicolour: "Multi",
  multicolored: "Multi",
  multicoloured: "Multi",
  "multi colored": "Multi",
  "multi coloured": "Multi",
  "multi color": "Multi",
  "multi colour": "Multi",
  assorted: "Multi",
};

const LOOKUP: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  for (const name of Object.keys(CANONICAL)) m.set(name.toLowerCase(), name);
  m.set("multi", "Multi");
  for (const [alias, name] of Object.entries(ALIASES)) m.set(alias, name);
  return m;
})();

/** First words of all spellings: most tokens of a name are not colours and are rejected by one lookup. */
const FIRST_WORDS: ReadonlySet<string> = new Set([...LOOKUP.keys()].map((k) => k.split(" ")[0]!));

/** Longest alias in words, so phrase matching knows how far to look ahead. */
const MAX_WORDS = Math.max(...[...LOOKUP.keys()].map((k) => k.split(" ").length));

/** Lowercases and drops the decorations Myntra puts on colour words ("Gold-Toned", "Peach-Coloured"). */
function normalizeColorWords(s: string): string {
  return s
    .toLowerCase()
    .replace(/[-\s]*(?:toned|coloured|colored|tone)\b/g, "")
    .replace(/-/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Canonical colour name for a spelling, "Multi" for multi-colour spellings, undefined when unknown or "NA". */
export function canonicalColor(name: string): string | undefined {
  return LOOKUP.get(normalizeColorWords(name));
}

/** "#rrggbb" of a single named colour; undefined for unknown names and for "Multi" (use colorHexes). */
export function colorHex(name: string): string | undefined {
  const c = canonicalColor(name);
  return c === undefined ? undefined : CANONICAL[c];
}

/**
 * All hex colours of a colour label: "Navy Blue" -> one, "Black & Grey" -> two, "Multi" -> three stripes.
 * Unknown parts are skipped; an unknown label gives [].
 */
export function colorHexes(label: string): string[] {
  const phrase = findColorPhrase(label);
  return phrase ? phrase.hexes : [];
}

/** Every canonical colour with its hex (for documentation, tests and image analysis ground truth). */
export function colorTable(): Array<{ name: string; hex: string }> {
  return Object.entries(CANONICAL).map(([name, hex]) => ({ name, hex }));
}

export const MULTI_HEXES: readonly string[] = MULTI;

export interface ColorPhrase {
  /** The words as they appear in the text, e.g. "Brown & Off-White". */
  label: string;
  /** Canonical names in order, e.g. ["Brown", "Off White"]. */
  colors: string[];
  /** One hex per colour, three for "Multi"; at most 3 in all. */
  hexes: string[];
  /** The text after the phrase. */
  rest: string;
}

const JOINERS = new Set(["&", "and", "/", ","]);

/** Words, with "&", "/" and "," as tokens of their own ("Black/White," -> Black / White ,). */
function tokenize(text: string): string[] {
  return text
    .replace(/([&/,])/g, " $1 ")
    .split(/\s+/)
    .filter((t) => t !== "");
}

/**
 * Finds the first run of colour words joined by "&", "and", "/" or ",": "Black & Grey", "Red, Yellow, Blue".
 * With `anchored` the phrase must start at the first word (used right after the gender word of a name,
 * where Myntra and styles.csv put the colour).
 */
export function findColorPhrase(text: string, opts: { anchored?: boolean } = {}): ColorPhrase | null {
  const tokens = tokenize(text);
  // Normalise each token once; n-grams are then plain joins.
  const norm = tokens.map(normalizeColorWords);
  const lastStart = opts.anchored ? 0 : tokens.length - 1;
  for (let start = 0; start <= lastStart && start < tokens.length; start++) {
    const first = matchColorAt(norm, start);
    if (!first) continue;
    const colors = [first.name];
    let end = first.end;
    while (JOINERS.has(norm[end] ?? "")) {
      const next = matchColorAt(norm, end + 1);
      if (!next) break;
      colors.push(next.name);
      end = next.end;
    }
    const label = tokens.slice(start, end).join(" ").replace(/ , /g, ", ").replace(/ \/ /g, "/");
    const unique = [...new Set(colors)];
    return { label, colors: unique, hexes: hexesFor(unique), rest: tokens.slice(end).join(" ") };
  }
  return null;
}

function hexesFor(colors: string[]): string[] {
  const out: string[] = [];
  for (const c of colors) {
    if (c === "Multi") out.push(...MULTI);
    else out.push(CANONICAL[c]!);
  }
  return [...new Set(out)].slice(0, 3);
}

function matchColorAt(norm: string[], at: number): { name: string; end: number } | null {
  if (!FIRST_WORDS.has((norm[at] ?? "").split(" ")[0]!)) return null;
  for (let n = Math.min(MAX_WORDS, norm.length - at); n >= 1; n--) {
    const name = LOOKUP.get(norm.slice(at, at + n).join(" "));
    if (name !== undefined) return { name, end: at + n };
  }
  return null;
}
