import { colourOf, colourPoint } from "../catalog/colours.ts";

/*
 * Which colours go together in an outfit, from the colour names a catalog gives its variations. Neutrals
 * (black, white, greys, beiges, browns, navy, denim, metal tones) go with anything. Two accents go together
 * when their hues are analogous (within 30°) and far enough apart in OKLab not to look like a failed match, or
 * complementary (150–210°), or both muted. A look has at most one loud accent (a saturated colour, a
 * several-colour piece, a print). Hue and distance are read in OKLab, where they follow what the eye sees.
 */

/** Words that name a neutral, whatever their chroma (brown and navy are saturated, yet worn as neutrals). */
const NEUTRAL_WORDS = new Set(
  "black white grey gray charcoal melange beige cream off ivory navy denim brown khaki tan camel taupe nude skin silver steel gunmetal metallic platinum gold golden bronze copper coffee mushroom stone transparent".split(
    " ",
  ),
);
/** Names that say "many colours" or "a print": loud, of no one hue. */
const BUSY_WORDS = new Set(["multi", "multicoloured", "multicolored", "multicolor", "multicolour", "assorted", "printed", "print"]);

/** OKLab chroma from which an accent is loud (pure red 0.26, mustard 0.15, teal 0.09, pink 0.07). */
const LOUD_CHROMA = 0.13;
/** Below this chroma an accent is muted (pastels, dusty tones): muted accents go together freely. */
const MUTED_CHROMA = 0.09;
/** Below this chroma a colour is a grey, whatever its name. */
const GREY_CHROMA = 0.04;
/** Accents closer than this (OKLab) are the same colour: a tonal match. */
const SAME_COLOUR = 0.04;
/** Analogous accents nearer than this look like a match that failed (navy trousers with a nearly-navy jacket). */
const MIN_ACCENT_DISTANCE = 0.1;

export interface Palette {
  /** Small and dense, one per colour name (UNKNOWN_PALETTE is 0): what rankings key colours by. */
  id: number;
  /** The name said something we can read (a colour or "multi"). */
  known: boolean;
  /** No accent: every colour named is a neutral. */
  neutral: boolean;
  /** A saturated accent, two accents, or a print. */
  loud: boolean;
  /** Several colours or a print: loud, with no hue of its own. */
  busy: boolean;
  /** The most saturated accent as [L, a, b, chroma] (colourPoint), or null. */
  accent: readonly number[] | null;
  /** Its hue in degrees (0 without an accent). */
  hue: number;
  /** Mean OKLab lightness of the colours named (0.5 when none is known). */
  lightness: number;
}

export const UNKNOWN_PALETTE: Palette = {
  id: 0,
  known: false,
  neutral: false,
  loud: false,
  busy: false,
  accent: null,
  hue: 0,
  lightness: 0.5,
};

const palettes = new Map<string, Palette>();
/** Palettes by id: UNKNOWN_PALETTE, then one per colour name read. */
const byId: Palette[] = [UNKNOWN_PALETTE];

/** Colour names remembered at most: a catalog has hundreds. Past that, a new name's colour counts as unknown. */
export const MAX_PALETTES = 10_000;

/** The palette of a variation name ("Navy Blue", "Blue & White", "Multi", "Gold-Toned"). */
export function paletteOf(name: string | undefined): Palette {
  const key = name?.trim().toLowerCase().slice(0, 60) ?? "";
  if (!key) return UNKNOWN_PALETTE;
  let palette = palettes.get(key);
  if (!palette) {
    if (byId.length > MAX_PALETTES) return UNKNOWN_PALETTE;
    palette = readPalette(key, byId.length);
    palettes.set(key, palette);
    byId.push(palette);
  }
  return palette;
}

/** The palette with this id (ids are what rankings keep in typed arrays). */
export const paletteById = (id: number): Palette => byId[id] ?? UNKNOWN_PALETTE;

function readPalette(key: string, id: number): Palette {
  const parts = key.split(/\s*(?:&|\/|,|\band\b|\bwith\b)\s*/).filter(Boolean);
  let busy = parts.length === 0;
  let known = false;
  const accents: number[][] = [];
  let lightness = 0;
  let lit = 0;
  for (const part of parts) {
    const words = part.split(/[\s-]+/);
    if (words.some((w) => BUSY_WORDS.has(w))) {
      busy = known = true;
      continue;
    }
    const colour = colourOf(part);
    if (colour) {
      lightness += colour.l;
      lit++;
    }
    const neutralWord = words.some((w) => NEUTRAL_WORDS.has(w));
    if (neutralWord || (colour && Math.hypot(colour.a, colour.b) < GREY_CHROMA)) {
      known = true;
      continue;
    }
    if (colour) {
      known = true;
      accents.push(colourPoint(colour));
    }
  }
  if (accents.length > 1) busy = true;
  const accent = accents.sort((a, b) => b[3]! - a[3]!)[0] ?? null;
  return {
    id,
    known,
    neutral: known && !busy && !accent,
    busy: known && busy,
    loud: known && (busy || (accent !== null && accent[3]! >= LOUD_CHROMA)),
    accent,
    hue: accent ? hueOf(accent) : 0,
    lightness: lit ? lightness / lit : 0.5,
  };
}

const hueOf = (p: readonly number[]) => ((Math.atan2(p[2]!, p[1]!) * 180) / Math.PI + 360) % 360;

/** How two pieces' colours relate, and what each relation scores: 0 means they clash, never in one look. */
const RELATIONS = {
  "colour not known": 0.55,
  "two neutrals": 0.8,
  "a neutral goes with anything": 0.9,
  "two loud pieces": 0,
  "a print with a colour": 0.3,
  "the same colour": 0.7,
  "shades too close to match": 0,
  "analogous hues": 0.8,
  "complementary hues": 0.75,
  "both muted": 0.5,
  "hues that clash": 0,
} as const;
export type Relation = keyof typeof RELATIONS;

export function relation(x: Palette, y: Palette): Relation {
  if (!x.known || !y.known) return x.loud && y.loud ? "two loud pieces" : "colour not known";
  if (x.neutral && y.neutral) return "two neutrals";
  if (x.neutral || y.neutral) return "a neutral goes with anything";
  if (x.loud && y.loud) return "two loud pieces";
  if (x.busy || y.busy) return "a print with a colour";
  const a = x.accent!;
  const b = y.accent!;
  const distance = Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
  if (distance < SAME_COLOUR) return "the same colour";
  const dh = Math.abs(((x.hue - y.hue + 540) % 360) - 180);
  if (dh <= 30) return distance < MIN_ACCENT_DISTANCE ? "shades too close to match" : "analogous hues";
  if (dh >= 150) return "complementary hues";
  return a[3]! < MUTED_CHROMA && b[3]! < MUTED_CHROMA ? "both muted" : "hues that clash";
}

/** How well two pieces' colours go together: 0 (they clash) to 1. */
export const harmony = (x: Palette, y: Palette): number => RELATIONS[relation(x, y)];

const HUE_NAMES = ["red", "orange", "yellow", "lime", "green", "teal", "cyan", "azure", "blue", "violet", "magenta", "pink"];

/**
 * A look's colour story, what makes two looks different to the eye: its loudest accent's hue family, else
 * "print", else light or dark neutrals.
 */
export function storyOf(palettes: readonly Palette[]): string {
  let best: Palette | null = null;
  for (const p of palettes) if (p.accent && (!best || p.accent[3]! > best.accent![3]!)) best = p;
  // Hue 0° in OKLab is a pinkish red: sectors start 15° below it so that red is one family.
  if (best) return HUE_NAMES[Math.floor(((best.hue + 15) % 360) / 30)]!;
  if (palettes.some((p) => p.busy)) return "print";
  const light = palettes.reduce((sum, p) => sum + p.lightness, 0) / Math.max(1, palettes.length);
  return light > 0.6 ? "light neutrals" : "dark neutrals";
}
