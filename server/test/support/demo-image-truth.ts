import sharp from "sharp";
import { colorTable } from "../../../demo-store/src/catalog/colors.ts";
import { IMAGE_FAMILIES, IMAGE_NEUTRALS, IMAGE_SIZES, renderImage, type ParsedImage } from "../../../demo-store/src/catalog/images.ts";
import { seededRandom } from "../../../demo-store/src/catalog/seeded-random.ts";
import { MIN_RATIO, type ColourShare } from "../../src/modules/enrichment/image-colours.ts";
import { deltaE, hexToOklab, oklabToHex } from "../../src/modules/enrichment/oklab-pixels.ts";

/*
 * Ground truth for colour extraction: the demo store's generated product images, whose URL names the colours they
 * are filled with. Cases are drawn deterministically: every family, one to three colours (stripes), from the demo
 * catalog's palette, from all of sRGB, and near the backdrop. A case's true shares are counted on the image
 * rendered at 800 px: the pixels of each exact colour, over all pixels of the product's colours.
 */

export type CaseKind = "palette" | "random" | "near-backdrop";

export interface TruthCase {
  image: Extract<ParsedImage, { kind: "product" }>;
  kind: CaseKind;
  /** The URL's colours. */
  colours: string[];
}

/** Colours of a product that are nearer than this (ΔE OK) are one colour to a shopper and to the extraction. */
export const MIN_COLOUR_SEPARATION = 0.1;
/** An extracted colour within this (ΔE OK) of a true one found it. */
export const FOUND_WITHIN = 0.05;
/** A true colour leads when its share is this much above the next one's. */
export const MAIN_MARGIN = 0.05;
/**
 * How far from the backdrop "near-backdrop" cases' first colour is (ΔE OK): the demo palette's own Off White is
 * 0.013 from it, Transparent 0.016, Cream 0.028. Nearer than the lower bound no shopper could tell them apart.
 */
export const NEAR_BACKDROP: [number, number] = [0.01, 0.08];

const lab = (hex: string) => hexToOklab(hex)!;
const distance = (x: string, y: string) => deltaE(lab(x), 0, lab(y), 0);

export function drawCases(count: number): TruthCase[] {
  const rng = seededRandom("image-colour-ground-truth");
  const palette = colorTable().map((c) => c.hex);
  const randomHex = () => `#${[0, 0, 0].map(() => rng.int(0, 255).toString(16).padStart(2, "0")).join("")}`;
  const nearBackdrop = () => {
    const [l, a, b] = lab(IMAGE_NEUTRALS.background);
    for (;;) {
      // A random direction in OKLab at a random distance in the band, kept if it is a valid sRGB colour.
      const d = NEAR_BACKDROP[0] + rng.next() * (NEAR_BACKDROP[1] - NEAR_BACKDROP[0]);
      const v = [rng.next() - 0.5, (rng.next() - 0.5) * 0.6, (rng.next() - 0.5) * 0.6];
      const norm = Math.hypot(...v);
      const hex = oklabToHex(l + (v[0]! / norm) * d, a + (v[1]! / norm) * d, b + (v[2]! / norm) * d);
      const actual = distance(hex, IMAGE_NEUTRALS.background);
      if (actual >= NEAR_BACKDROP[0] && actual <= NEAR_BACKDROP[1]) return hex;
    }
  };
  const cases: TruthCase[] = [];
  for (let i = 0; i < count; i++) {
    const kind: CaseKind = i % 20 < 12 ? "palette" : i % 20 < 17 ? "random" : "near-backdrop";
    const n = 1 + (i % 3);
    const colours: string[] = [];
    while (colours.length < n) {
      const hex = kind === "palette" ? rng.pick(palette) : kind === "near-backdrop" && colours.length === 0 ? nearBackdrop() : randomHex();
      // Not the backdrop itself (no image could show it), and distinct from the product's other colours.
      if (distance(hex, IMAGE_NEUTRALS.background) < NEAR_BACKDROP[0]) continue;
      if (colours.some((c) => distance(c, hex) < MIN_COLOUR_SEPARATION)) continue;
      colours.push(hex);
    }
    const family = IMAGE_FAMILIES[(i * 7 + Math.floor(i / 11)) % IMAGE_FAMILIES.length]!;
    const size = IMAGE_SIZES[Math.floor(i / 3) % IMAGE_SIZES.length]!;
    cases.push({ kind, colours, image: { kind: "product", family, colors: colours, size } });
  }
  return cases;
}

export const svgOf = (c: TruthCase) => Buffer.from(renderImage(c.image));

/**
 * Shares of the product's colours in the image rendered at 800 px: the pixels of exactly each colour (outline
 * and seam blends count for none), the watch's dial included as part of the product.
 */
export async function trueShares(c: TruthCase): Promise<ColourShare[]> {
  const colours = productColours(c);
  const { data, info } = await sharp(Buffer.from(renderImage({ ...c.image, size: "l" })))
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Exact values: a flat fill rasterises to its own colour, every blend (outline, seam, edge) to another.
  const index = new Map(colours.map((hex, i) => [parseInt(hex.slice(1), 16), i]));
  const counts = new Array<number>(colours.length).fill(0);
  for (let p = 0; p < data.length; p += info.channels) {
    const i = index.get((data[p]! << 16) | (data[p + 1]! << 8) | data[p + 2]!);
    if (i !== undefined) counts[i]!++;
  }
  const total = counts.reduce((a, b) => a + b, 0);
  return colours.map((hex, i) => ({ hex, ratio: counts[i]! / total }));
}

/** The URL's colours, and the watch's dial, which is part of that product. */
export function productColours(c: TruthCase): string[] {
  return c.image.family === "watch" ? [...c.colours, IMAGE_NEUTRALS.watchDial] : [...c.colours];
}

export interface CaseScore {
  /** Every URL colour covering at least MIN_RATIO of the product has an extracted colour within FOUND_WITHIN. */
  allFound: boolean;
  /** The extraction's first colour is the true colour with the largest share; null when no colour leads by MAIN_MARGIN. */
  mainFirst: boolean | null;
  /** A colour near the backdrop or its shadow was reported that is none of the product's. */
  backdropReported: boolean;
  /** A colour was reported that is none of the product's (backdrop or not). */
  extraReported: boolean;
  /** Mean |extracted share − true share| over the product's colours (an unfound colour counts its whole share). */
  ratioError: number;
}

export function scoreCase(c: TruthCase, truth: ColourShare[], extracted: ColourShare[]): CaseScore {
  const near = (x: string, y: string) => distance(x, y) <= FOUND_WITHIN;
  const match = (hex: string) => {
    let best: ColourShare | null = null;
    for (const e of extracted) if (near(hex, e.hex) && (!best || distance(hex, e.hex) < distance(hex, best.hex))) best = e;
    return best;
  };
  // A colour under the extraction's smallest share is not visible enough to ask for (a stripe the shape clips off).
  const allFound = truth.every((t) => !c.colours.includes(t.hex) || t.ratio < MIN_RATIO || match(t.hex) !== null);
  const [main, second] = [...truth].sort((a, b) => b.ratio - a.ratio);
  // Only where one colour clearly covers most (two stripes of equal width have no main colour).
  const mainFirst =
    !main || (second && main.ratio - second.ratio < MAIN_MARGIN) ? null : extracted.length > 0 && near(main.hex, extracted[0]!.hex);
  const product = productColours(c);
  const foreign = extracted.filter((e) => !product.some((hex) => near(hex, e.hex)));
  const backdropReported = foreign.some((e) => near(e.hex, IMAGE_NEUTRALS.background) || near(e.hex, IMAGE_NEUTRALS.shadow));
  const ratioError = truth.reduce((sum, t) => sum + Math.abs((match(t.hex)?.ratio ?? 0) - t.ratio), 0) / truth.length;
  return { allFound, mainFirst, backdropReported, extraReported: foreign.length > 0, ratioError };
}
