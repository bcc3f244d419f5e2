import { deltaE } from "./oklab-pixels.ts";

/*
 * Which pixels of a product photo are the product. Catalog images show the product on a plain backdrop that
 * reaches the frame's edges, so the backdrop is the colour most of the border has. Removed as backdrop: pixels
 * about that colour, as near as the border's own unevenness requires (a flat studio backdrop: nearly exactly it,
 * so an off-white shirt keeps its pixels), anywhere in the image (backdrop seen through a bag's handle or a
 * ring); and, by a flood fill from the edge, its shadow: the backdrop's hue, darker. Only a flood fill, so a
 * grey product stops it at its edge instead of vanishing with the shadow. Transparent pixels are backdrop too.
 * Last, the product's own rim is peeled off: there it blends with its outline and the backdrop into colours it
 * does not have.
 */

/**
 * Share of the border that must be one colour for it to count as a backdrop (else: a photo filling the frame). A
 * product cut off by the frame (trousers at the bottom edge) still leaves most of the border to the backdrop.
 */
const MIN_BORDER_SHARE = 0.6;
/** Border pixels this near the most common border colour make up the backdrop colour. */
const BORDER_RADIUS = 0.03;
/**
 * Pixels within MIN_RADIUS + SPREAD_FACTOR × (the border's own spread around the backdrop colour), at most
 * MAX_RADIUS (ΔE OK), are backdrop: connected to the edge, or anywhere (backdrop seen through a hole).
 */
const MIN_RADIUS = 0.006;
const SPREAD_FACTOR = 1.5;
const MAX_RADIUS = 0.04;
/**
 * From the edge, the flood fill also takes pixels this near the backdrop (ΔE OK): the halo lossy compression
 * leaves around a product, where the backdrop strays further than along the border.
 */
const FLOOD_RADIUS = 0.02;
/** A shadow, flood-filled from the edge: darker than the backdrop by up to this much, tinted by up to MAX_TINT. */
const MAX_DARKER = 0.1;
const MAX_TINT = 0.015;
/** Alpha below which a pixel is transparent. */
const OPAQUE = 128;

export interface ProductMask {
  /** 1 where the pixel is the product's. */
  mask: Uint8Array;
  /** The backdrop colour [L, a, b], or null when the border has none (transparent or a full-frame photo). */
  backdrop: [number, number, number] | null;
}

/**
 * `rgba` is the image's pixels, 4 bytes each; `lab` their OKLab colours, 3 numbers each. `peel` is how many
 * pixels of the product's rim are dropped (when enough product remains).
 */
export function productMask(rgba: Uint8Array, lab: Float64Array, width: number, height: number, peel: number): ProductMask {
  const n = width * height;
  const background = new Uint8Array(n);
  for (let p = 0; p < n; p++) if (rgba[p * 4 + 3]! < OPAQUE) background[p] = 1;

  const border = borderPixels(width, height).filter((p) => !background[p]);
  const found = border.length >= borderPixels(width, height).length * MIN_BORDER_SHARE ? backdropColour(lab, border) : null;
  const backdrop = found?.colour ?? null;
  if (found && backdrop) {
    // As uniform as the border shows it to be: a flat studio backdrop is removed only where it is that exact
    // colour, so an off-white shirt on it (ΔE 0.013 in the demo) keeps its pixels; a photo's uneven backdrop is
    // removed with the spread it has along the border.
    const radius = Math.min(MAX_RADIUS, MIN_RADIUS + SPREAD_FACTOR * found.spread);
    // Backdrop, or its shadow: the backdrop's hue, darker.
    const shade = (p: number) => {
      if (deltaE(lab, p * 3, backdrop, 0) <= Math.max(radius, FLOOD_RADIUS)) return true;
      const dl = lab[p * 3]! - backdrop[0];
      return dl <= -radius && dl >= -MAX_DARKER && Math.hypot(lab[p * 3 + 1]! - backdrop[1], lab[p * 3 + 2]! - backdrop[2]) <= MAX_TINT;
    };
    // Flood fill from every border pixel that is backdrop-like (4-connected, so a diagonal gap in an outline does not leak).
    const stack: number[] = [];
    for (const p of borderPixels(width, height)) {
      if (background[p] || shade(p)) {
        background[p] = 1;
        stack.push(p);
      }
    }
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % width;
      const y = (p - x) / width;
      for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, y > 0 ? p - width : -1, y < height - 1 ? p + width : -1]) {
        if (q >= 0 && !background[q] && (rgba[q * 4 + 3]! < OPAQUE || shade(q))) {
          background[q] = 1;
          stack.push(q);
        }
      }
    }
    for (let p = 0; p < n; p++) if (!background[p] && deltaE(lab, p * 3, backdrop, 0) <= radius) background[p] = 1;
  }

  const mask = new Uint8Array(n);
  let kept = 0;
  for (let p = 0; p < n; p++) if (!background[p]) (mask[p] = 1), kept++;
  return { mask: peelRim(mask, width, height, peel, kept), backdrop };
}

function borderPixels(width: number, height: number): number[] {
  const out: number[] = [];
  for (let x = 0; x < width; x++) out.push(x, (height - 1) * width + x);
  for (let y = 1; y < height - 1; y++) out.push(y * width, y * width + width - 1);
  return out;
}

/**
 * The border's most common colour (the mean of the border pixels near its densest bin) and its spread: how far
 * (ΔE OK) those pixels stray from it, at the 90th percentile.
 */
function backdropColour(lab: Float64Array, border: number[]): { colour: [number, number, number]; spread: number } | null {
  const bins = new Map<number, number[]>();
  for (const p of border) {
    const key = (Math.round(lab[p * 3]! * 50) * 64 + Math.round(lab[p * 3 + 1]! * 50) + 32) * 64 + Math.round(lab[p * 3 + 2]! * 50) + 32;
    const members = bins.get(key);
    if (members) members.push(p);
    else bins.set(key, [p]);
  }
  let densest: number[] = [];
  for (const members of bins.values()) if (members.length > densest.length) densest = members;
  const seed = densest[0]!;
  const near = border.filter((p) => deltaE(lab, p * 3, lab, seed * 3) <= BORDER_RADIUS);
  if (near.length < border.length * MIN_BORDER_SHARE) return null;
  const colour: [number, number, number] = [0, 0, 0];
  for (const p of near) for (let c = 0; c < 3; c++) colour[c] = colour[c]! + lab[p * 3 + c]! / near.length;
  const strays = near.map((p) => deltaE(lab, p * 3, colour, 0)).sort((a, b) => a - b);
  return { colour, spread: strays[Math.floor(strays.length * 0.9)]! };
}

/** Drops `times` one-pixel layers of the product's rim, unless that would leave less than a third of it. */
function peelRim(mask: Uint8Array, width: number, height: number, times: number, kept: number): Uint8Array {
  let current = mask;
  for (let t = 0; t < times; t++) {
    const next = new Uint8Array(current.length);
    let left = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const p = y * width + x;
        if (!current[p]) continue;
        const inner =
          x > 0 && x < width - 1 && y > 0 && y < height - 1 && current[p - 1] && current[p + 1] && current[p - width] && current[p + width];
        if (inner) (next[p] = 1), left++;
      }
    }
    if (left < kept / 3) break;
    current = next;
  }
  return current;
}
