import { converter, parse, type Oklab } from "culori";

/*
 * A colour name, as catalogs write variation names ("Navy Blue", "Off White", "Mustard"), as a point in OKLab, where
 * straight-line distance follows how different two colours look. CSS knows many names (culori parses them); the
 * names below are fashion's own, or CSS names a catalog writes in two words. "Multi" or a made-up name has none.
 */

const FASHION_NAMES: Readonly<Record<string, string>> = {
  "navy blue": "#1f2a48",
  "off white": "#efeadd",
  "grey melange": "#a8a8a5",
  "turquoise blue": "#2cbcc6",
  "sea green": "#2e8b57",
  "coffee brown": "#4a3526",
  "mushroom brown": "#9e8e7c",
  "lime green": "#7bc043",
  "fluorescent green": "#3dff2a",
  "rose gold": "#b5707a",
  mustard: "#d1a11a",
  cream: "#f2e8d0",
  charcoal: "#37444e",
  skin: "#e6b794",
  steel: "#7a8998",
  rust: "#b4430f",
  burgundy: "#7d1d2f",
  metallic: "#9da2a7",
  nude: "#e2bb98",
  mauve: "#b585a6",
  rose: "#e6a1b1",
  taupe: "#8a7c6a",
  gunmetal: "#52555a",
  platinum: "#d8d8d4",
  bronze: "#a8713b",
  copper: "#b36a3d",
  camel: "#c09a6c",
  denim: "#3c5a8a",
  grey: "#8a8a8a",
  peach: "#fdc9a3",
};

/**
 * Names to call an image's colours by (nameColour): the basic colour words shoppers filter by, which culori
 * reads as CSS names, and the fashion names above. Each is one that colourOf() understands. Not "brown": CSS's
 * brown is a brick red (#a52a2a) that would name red pixels; the fashion browns (coffee, mushroom, camel, tan)
 * name brown ones.
 */
export const COLOUR_VOCABULARY: readonly string[] = [
  ...["black", "white", "grey", "red", "orange", "yellow", "green", "blue", "purple", "pink", "beige"],
  ...["maroon", "olive", "teal", "gold", "silver", "khaki", "lavender", "magenta", "coral", "turquoise", "tan"],
  ...Object.keys(FASHION_NAMES),
].filter((name, i, all) => all.indexOf(name) === i);

const toOklab = converter("oklab");
const known = new Map<string, Oklab | null>();

function lookup(name: string): Oklab | null {
  const hex = FASHION_NAMES[name];
  const parsed = parse(hex ?? name.replace(/[\s-]+/g, ""));
  return parsed ? toOklab(parsed) : null;
}

/** The colour a name stands for: the whole name, else its last word that names one ("Coffee Brown" → brown). */
export function colourOf(name: string | undefined): Oklab | null {
  if (!name) return null;
  const key = name.trim().toLowerCase().slice(0, 60);
  let colour = known.get(key);
  if (colour !== undefined) return colour;
  colour = lookup(key);
  const words = key.split(/[\s/&-]+/).filter(Boolean);
  for (let i = words.length - 1; !colour && i >= 0; i--) colour = lookup(words[i]!);
  if (known.size < 10_000) known.set(key, colour);
  return colour;
}

/** A colour as colourDistance reads it: L, a, b and its chroma. */
export const colourPoint = (c: Oklab): [number, number, number, number] => [c.l, c.a, c.b, Math.hypot(c.a, c.b)];

/**
 * How different two colours look as a shopper names them: OKLab's difference split into lightness, chroma and
 * hue, with hue weighted up and lightness and chroma down. Plain OKLab distance put dark maroon nearer navy blue
 * than bright blue (both dark), while a shopper looking at a navy shirt calls a royal blue one "also blue". About
 * 0.05 is a close shade; 0.35 and more are unrelated colours. Points are colourPoint()s at offsets `i` and `j`
 * of flat arrays, so a ranking reads thousands of them without an object each.
 */
export function pointDistance(x: ArrayLike<number>, i: number, y: ArrayLike<number>, j: number): number {
  const dl = x[i]! - y[j]!;
  const da = x[i + 1]! - y[j + 1]!;
  const db = x[i + 2]! - y[j + 2]!;
  const dc = x[i + 3]! - y[j + 3]!;
  // ΔH² = Δa² + Δb² - ΔC²: the part of the a/b difference that is a change of hue.
  const dh2 = Math.max(0, da * da + db * db - dc * dc);
  // Chroma counts in full against a grey, white or black: a grey shirt is no red one, however alike in lightness.
  const chromaWeight = Math.min(x[i + 3]!, y[j + 3]!) < ACHROMATIC ? 1 : CHROMA_WEIGHT;
  return Math.sqrt((dl / LIGHTNESS_WEIGHT) ** 2 + (dc / chromaWeight) ** 2 + dh2 * HUE_WEIGHT ** 2);
}

/** Chroma below which a colour is a grey (OKLab; navy blue, a dark but clear blue, is about 0.05). */
export const ACHROMATIC = 0.03;

const LIGHTNESS_WEIGHT = 1.5;
const CHROMA_WEIGHT = 2;
const HUE_WEIGHT = 1.5;
