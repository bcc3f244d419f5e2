import sharp, { type OutputInfo } from "sharp";
import { ACHROMATIC, colourOf, colourPoint, COLOUR_VOCABULARY, pointDistance } from "../catalog/colours.ts";
import { binPixels, clusterColours, edgeShares } from "./colour-clusters.ts";
import { productMask } from "./image-background.ts";
import { hexToOklab, oklabToHex, rgbToOklab } from "./oklab-pixels.ts";

/*
 * The colours a product image shows, with the share of the product each covers: decode (JPEG, PNG, WebP, SVG),
 * shrink, drop the backdrop (image-background.ts), cluster what is left in OKLab (colour-clusters.ts), and drop
 * clusters too small to be a colour a shopper would name (a logo, a button, a seam). Ratios are over the product's
 * pixels and sum to 1.
 */

export interface ColourShare {
  /** "#rrggbb", lowercase. */
  hex: string;
  /** Share of the product's pixels, 0–1; the shares of one image sum to 1. */
  ratio: number;
}

export type ColourExtraction =
  | {
      ok: true;
      /** Most of the product first; empty when nothing but backdrop was found. */
      colours: ColourShare[];
      /** Share of the analysed pixels that were the product's (not backdrop, not its rim). */
      productShare: number;
    }
  | { ok: false; reason: "too-large" | "undecodable"; detail: string };

export interface ExtractOptions {
  /** Largest encoded image read (the fetcher's cap, again, for images from elsewhere). */
  maxBytes?: number;
  /** Largest image decoded, in pixels (width × height): a small file can declare a huge image. */
  maxPixels?: number;
  /** The image is shrunk to fit this many pixels on its longer side before analysis. */
  side?: number;
  /** Most colours reported (before small ones are dropped). */
  maxColours?: number;
}

const DEFAULTS: Required<ExtractOptions> = { maxBytes: 8 * 1024 * 1024, maxPixels: 40_000_000, side: 96, maxColours: 6 };

/** Clusters nearer than this (ΔE OK) are one colour: tuned on the demo images' ground truth (docs/webhooks-and-enrichment.md, "Image analysis"). */
export const MERGE_DISTANCE = 0.05;
/** A cluster under this share of the product is detail, not a colour of it. */
export const MIN_RATIO = 0.03;
/** A cluster with more than this share of its pixels on its edge is a line (outline, seam), not a colour. */
export const MAX_EDGE_SHARE = 0.6;
/** Layers of the product's rim dropped before clustering (outline and anti-aliasing blends). */
const RIM_PEEL = 1;
const TYPICAL_RADIUS = 0.03;

export async function extractColours(bytes: Uint8Array, options: ExtractOptions = {}): Promise<ColourExtraction> {
  const opts = { ...DEFAULTS, ...options };
  if (bytes.length > opts.maxBytes) return { ok: false, reason: "too-large", detail: `${bytes.length} bytes, over ${opts.maxBytes}` };

  const format = imageFormat(bytes);
  if (!format) return { ok: false, reason: "undecodable", detail: "not a JPEG, PNG, WebP or SVG image" };

  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, { limitInputPixels: opts.maxPixels, failOn: "error", pages: 1 })
      // Nearest-neighbour: samples the image's own colours, where a smoothing kernel would blend neighbours
      // (two stripes, a stripe and the outline) into colours the product does not have.
      .resize(opts.side, opts.side, { fit: "inside", kernel: "nearest", withoutEnlargement: true })
      .toColourspace("srgb")
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return /pixel limit/i.test(message)
      ? { ok: false, reason: "too-large", detail: message }
      : { ok: false, reason: "undecodable", detail: message };
  }

  const { width, height } = decoded.info;
  const rgba = new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.length);
  const n = width * height;
  const lab = new Float64Array(n * 3);
  for (let p = 0; p < n; p++) rgbToOklab(rgba[p * 4]!, rgba[p * 4 + 1]!, rgba[p * 4 + 2]!, lab, p * 3);

  const { mask } = productMask(rgba, lab, width, height, RIM_PEEL);
  const bins = binPixels(rgba, lab, mask);
  const product = bins.weight.reduce((a, b) => a + b, 0);
  const clusters = clusterColours(bins, { maxClusters: opts.maxColours, mergeDistance: MERGE_DISTANCE, typicalRadius: TYPICAL_RADIUS });
  const edges = edgeShares(bins, clusters, width);
  const kept = clusters
    .filter((c, k) => c.weight >= product * MIN_RATIO && edges[k]! <= MAX_EDGE_SHARE)
    .sort((a, b) => b.weight - a.weight);
  const keptWeight = kept.reduce((a, c) => a + c.weight, 0);
  return {
    ok: true,
    colours: kept.map((c) => ({ hex: oklabToHex(...c.lab), ratio: c.weight / keptWeight })),
    productShare: product / n,
  };
}

/**
 * Which of the formats we analyse the bytes are, from their signature. libvips reads many more (TIFF, GIF, HEIF,
 * PDF with some builds); a store's image URL has no business reaching those decoders.
 */
export function imageFormat(bytes: Uint8Array): "jpeg" | "png" | "webp" | "svg" | null {
  const at = (i: number, ...values: number[]) => values.every((v, j) => bytes[i + j] === v);
  if (at(0, 0xff, 0xd8, 0xff)) return "jpeg";
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "webp";
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 4096))
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (head.startsWith("<") && /<svg[\s>]/i.test(head)) return "svg";
  return null;
}

const vocabularyPoints = new WeakMap<readonly string[], { name: string; point: number[] }[]>();

/**
 * The name in `vocabulary` whose colour (as colourOf reads it) looks nearest to `hex`, or null when `hex` is not
 * a colour or no name is one. Nearness is pointDistance, the OKLab measure similar-product ranking uses, so a
 * colour is named as the catalog's own colour names would be matched against it. A grey is named from the grey
 * names (black, white, charcoal...) and a clear colour from the others, when the vocabulary has both: in OKLab a
 * near-black #111111 is nearer navy blue than pure black, yet no shopper calls it navy.
 */
export function nameColour(hex: string, vocabulary: readonly string[] = COLOUR_VOCABULARY): string | null {
  const lab = hexToOklab(hex);
  if (!lab) return null;
  let points = vocabularyPoints.get(vocabulary);
  if (!points) {
    points = vocabulary.flatMap((name) => {
      const colour = colourOf(name);
      return colour ? [{ name, point: colourPoint(colour) }] : [];
    });
    vocabularyPoints.set(vocabulary, points);
  }
  const point = colourPoint({ mode: "oklab", l: lab[0], a: lab[1], b: lab[2] });
  const grey = (p: number[]) => p[3]! < ACHROMATIC;
  const sameKind = points.filter((entry) => grey(entry.point) === grey(point));
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const entry of sameKind.length ? sameKind : points) {
    const d = pointDistance(point, 0, entry.point, 0);
    if (d < bestDistance) (bestDistance = d), (best = entry.name);
  }
  return best;
}
