import { clampRgb, formatHex, parse, converter } from "culori";

/*
 * sRGB bytes to OKLab, for thousands of pixels per image: culori's converters allocate an object per colour,
 * which costs more than the rest of the analysis, so the pixel path is the plain formula (Björn Ottosson's
 * matrices, the ones culori uses) over a lookup table of linearised channel values. Hex in and out goes through
 * culori, a few colours per image.
 */

/** sRGB channel byte -> linear light. */
const LINEAR = Float64Array.from({ length: 256 }, (_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** Writes the OKLab L, a, b of an sRGB byte triple into `out` at `at`. */
export function rgbToOklab(r: number, g: number, b: number, out: Float64Array | number[], at = 0): void {
  const lr = LINEAR[r]!;
  const lg = LINEAR[g]!;
  const lb = LINEAR[b]!;
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  out[at] = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  out[at + 1] = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  out[at + 2] = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
}

/** Straight-line OKLab distance (ΔE OK): about 0.02 is barely visible, 0.05 a close shade. */
export function deltaE(x: ArrayLike<number>, i: number, y: ArrayLike<number>, j: number): number {
  return Math.hypot(x[i]! - y[j]!, x[i + 1]! - y[j + 1]!, x[i + 2]! - y[j + 2]!);
}

/** "#rrggbb" of an OKLab colour, brought into the sRGB gamut. */
export function oklabToHex(l: number, a: number, b: number): string {
  return formatHex(clampRgb({ mode: "oklab", l, a, b }));
}

const toOklab = converter("oklab");

/** [L, a, b] of a CSS colour ("#rrggbb"), or null when it is not one. */
export function hexToOklab(hex: string): [number, number, number] | null {
  const parsed = parse(hex);
  if (!parsed) return null;
  const c = toOklab(parsed);
  return [c.l, c.a, c.b];
}
