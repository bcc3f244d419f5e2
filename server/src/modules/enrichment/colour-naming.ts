import { colourOf, colourPoint, pointDistance } from "../catalog/colours.ts";
import { COLOUR } from "./vocabulary/colour.ts";

/*
 * Names a colour measured in an image by the vocabulary colour nearest to it in OKLab, so image analysis and the
 * text stage speak of colours in the same keys. Nearness is the similarity module's perceptual distance (hue
 * counts more than lightness), with one rule of naming on top: a grey is named by a grey (black, charcoal, grey,
 * silver, white) and a colour by a colour. Without it a light grey came out "khaki" and a neon green "beige": the
 * distance weighs chroma down, which suits "also blue" for similar products but not naming.
 */

/** Chroma (OKLab) below which a colour is a grey; the demo's steel (0.029) and charcoal (0.026) are. */
const GREY_CHROMA = 0.03;

interface Named {
  key: string;
  point: [number, number, number, number];
}

/** The vocabulary colours that have a hex ("multi" has none), split into greys and colours. */
const NAMED: Named[] = COLOUR.values.flatMap((v) => (v.hex ? [{ key: v.key, point: colourPoint(colourOf(v.hex)!) }] : []));
const GREYS = NAMED.filter((n) => n.point[3] < GREY_CHROMA);
const COLOURS = NAMED.filter((n) => n.point[3] >= GREY_CHROMA);

/** The key of the vocabulary colour nearest to a CSS colour ("#1f2a48" -> "navy"); throws on text that is no colour. */
export function colourKeyForHex(hex: string): string {
  // colourOf reads any CSS colour, a hex included.
  const colour = colourOf(hex);
  if (!colour) throw new RangeError(`not a colour: ${JSON.stringify(hex)}`);
  const point = colourPoint(colour);
  let best = "";
  let bestDistance = Infinity;
  for (const n of point[3] < GREY_CHROMA ? GREYS : COLOURS) {
    const d = pointDistance(point, 0, n.point, 0);
    if (d < bestDistance) [best, bestDistance] = [n.key, d];
  }
  return best;
}
