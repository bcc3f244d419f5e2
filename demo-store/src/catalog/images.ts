/*
 * Locally generated product images. No data set can bring real images (no network), so each product gets
 * an SVG silhouette of its article family filled with its colours. The URL carries everything needed to
 * render the image (family, colours, size), so the demo store can serve any image without a catalog
 * lookup, and an image-analysis step can compare extracted colours with the URL's colours.
 *
 * URL scheme (paths are relative to the store's base URL):
 *   /images/products/{family}/{rrggbb}[-{rrggbb}[-{rrggbb}]].svg?size={s|m|l}
 *   /images/swatches/{rrggbb}[-{rrggbb}[-{rrggbb}]].svg
 * Hex digits are lowercase; at most three colours. Anything else is rejected by parseImagePath.
 *
 * SVG output is assembled only from constants, a validated family enum, validated hex colours and a
 * validated size enum; no data text (names, alt text) ever reaches the markup.
 */

import { IMAGE_FAMILIES, type ImageFamily } from "./categories.ts";

export type ImageSize = "s" | "m" | "l";
export const IMAGE_SIZES: readonly ImageSize[] = ["s", "m", "l"];
/** Rendered width and height in pixels per size. */
export const IMAGE_SIZE_PX: Readonly<Record<ImageSize, number>> = { s: 200, m: 400, l: 800 };
export const SWATCH_PX = 48;
export const MAX_IMAGE_COLORS = 3;
/** Serve with this Content-Type; the SVG has no scripts, styles or external references. */
export const IMAGE_CONTENT_TYPE = "image/svg+xml; charset=utf-8";
/** Colours the renderer uses besides the product's own, for image analysis to discount. */
export const IMAGE_NEUTRALS = { background: "#ecebe8", shadow: "#d9d7d2", outline: "#2b2b2b", watchDial: "#f7f7f5" };

export type { ImageFamily };
export { IMAGE_FAMILIES };

export interface ProductImageArgs {
  family: ImageFamily;
  /** "#rrggbb" (or "rrggbb"), 1 to 3 of them; several colours render as stripes. */
  colors: readonly string[];
  size: ImageSize;
}

export type ParsedImage =
  | { kind: "product"; family: ImageFamily; colors: string[]; size: ImageSize }
  | { kind: "swatch"; colors: string[] };

// Silhouettes in a 100x100 box. `details` are thin decorative strokes (collar, seams), drawn over the fill.
const SHAPES: Readonly<Record<ImageFamily, { d: string; evenOdd?: boolean; details?: string }>> = {
  top: {
    d: "M35 14 L43 12 Q50 19 57 12 L65 14 L85 27 L78 41 L69 36 L69 88 L31 88 L31 36 L22 41 L15 27 Z",
    details: "M43 12 Q50 19 57 12 M31 36 L31 44 M69 36 L69 44",
  },
  trousers: {
    d: "M31 10 L69 10 L73 90 L55 90 L50 38 L45 90 L27 90 Z",
    details: "M31 16 L69 16 M50 16 L50 38",
  },
  dress: {
    d: "M41 10 L59 10 L58 24 Q57 32 62 38 L78 90 L22 90 L38 38 Q43 32 42 24 Z",
    details: "M38.5 37 Q50 41 61.5 37",
  },
  shoe: {
    d: "M10 78 L10 50 Q10 40 20 40 L31 40 Q35 48 45 54 L70 60 Q88 63 90 72 L90 78 Q90 82 86 82 L14 82 Q10 82 10 78 Z",
    details: "M10 75 L90 75 M36 48 L42 44 M42 52 L48 48",
  },
  bag: {
    d:
      "M20 40 L80 40 L85 86 Q85 88 83 88 L17 88 Q15 88 15 86 Z " +
      "M34 40 L34 30 Q34 16 50 16 Q66 16 66 30 L66 40 L61 40 L61 30 Q61 21 50 21 Q39 21 39 30 L39 40 Z",
    details: "M21 48 L79 48",
  },
  watch: {
    d: "M41 6 L59 6 L59 94 L41 94 Z M30 50 A20 20 0 1 1 70 50 A20 20 0 1 1 30 50 Z",
  },
  cap: {
    d: "M20 62 Q20 26 50 26 Q80 26 80 62 L93 62 Q93 71 80 71 L20 71 Z",
    details: "M50 26 L50 62 M20 62 L80 62",
  },
  scarf: {
    d: "M24 12 L34 12 Q50 34 66 12 L76 12 Q72 30 61 38 L66 86 L53 88 L50 42 L47 43 L45 76 L33 76 L37 38 Q28 30 24 12 Z",
    details: "M34 76 L34 80 M38 76 L38 80 M42 76 L42 80 M55 88 L55 92 M59 87.5 L59 91.5 M63 87 L63 91",
  },
  jewellery: {
    d: "M22 58 A28 28 0 1 0 78 58 A28 28 0 1 0 22 58 Z M32 58 A18 18 0 1 0 68 58 A18 18 0 1 0 32 58 Z M50 10 L59 20 L50 30 L41 20 Z",
    evenOdd: true,
    details: "M41 20 L59 20",
  },
  eyewear: {
    d:
      "M12 40 L44 40 L42 60 Q40 67 29 67 Q17 67 15 58 Z M56 40 L88 40 L85 58 Q83 67 71 67 Q60 67 58 60 Z " +
      "M44 41 Q50 37 56 41 L56 45 Q50 41 44 45 Z",
    details: "M12 40 L6 36 M88 40 L94 36",
  },
  box: {
    d: "M22 36 L78 36 L78 86 L22 86 Z M18 24 L82 24 L82 36 L18 36 Z",
    details: "M18 36 L82 36 M50 24 L50 86",
  },
};

const HEX = /^#?([0-9a-fA-F]{6})$/;

/** "#rrggbb" in lowercase, or null when `s` is not a 6-digit hex colour. */
export function normalizeHex(s: string): string | null {
  const m = HEX.exec(s);
  return m ? `#${m[1]!.toLowerCase()}` : null;
}

function validColors(colors: readonly string[]): string[] {
  if (colors.length < 1 || colors.length > MAX_IMAGE_COLORS) throw new Error("1 to 3 colours expected");
  return colors.map((c) => {
    const hex = normalizeHex(c);
    if (hex === null) throw new Error("colour must be a 6-digit hex value");
    return hex;
  });
}

function isFamily(s: string): s is ImageFamily {
  return (IMAGE_FAMILIES as readonly string[]).includes(s);
}

function isSize(s: string): s is ImageSize {
  return (IMAGE_SIZES as readonly string[]).includes(s);
}

/** Six horizontal bands cycling through the colours: one colour fills the shape, two or three make stripes. */
function stripes(colors: readonly string[], x: number, width: number): string {
  if (colors.length === 1) return `<rect x="${x}" y="0" width="${width}" height="100" fill="${colors[0]}"/>`;
  const bands = 6;
  const h = 100 / bands;
  let out = "";
  for (let i = 0; i < bands; i++) {
    const y = Number((i * h).toFixed(3));
    // Slight overlap hides anti-aliasing seams between bands.
    out += `<rect x="${x}" y="${y}" width="${width}" height="${(h + 0.2).toFixed(3)}" fill="${colors[i % colors.length]}"/>`;
  }
  return out;
}

export function renderProductSvg(args: ProductImageArgs): string {
  if (!isFamily(args.family)) throw new Error("unknown image family");
  if (!isSize(args.size)) throw new Error("unknown image size");
  const colors = validColors(args.colors);
  const px = IMAGE_SIZE_PX[args.size];
  const shape = SHAPES[args.family];
  const rule = shape.evenOdd ? ' clip-rule="evenodd"' : "";
  const fillRule = shape.evenOdd ? ' fill-rule="evenodd"' : "";
  const n = IMAGE_NEUTRALS;
  let body =
    `<rect width="100" height="100" fill="${n.background}"/>` +
    `<ellipse cx="50" cy="94" rx="32" ry="3" fill="${n.shadow}"/>` +
    `<clipPath id="shape"><path d="${shape.d}"${rule}/></clipPath>` +
    `<g clip-path="url(#shape)">${stripes(colors, 0, 100)}</g>` +
    `<path d="${shape.d}"${fillRule} fill="none" stroke="${n.outline}" stroke-opacity="0.6" stroke-width="0.8" stroke-linejoin="round"/>`;
  if (shape.details) {
    body += `<path d="${shape.details}" fill="none" stroke="${n.outline}" stroke-opacity="0.35" stroke-width="0.6" stroke-linecap="round"/>`;
  }
  if (args.family === "watch") {
    body +=
      `<circle cx="50" cy="50" r="14" fill="${n.watchDial}" stroke="${n.outline}" stroke-opacity="0.5" stroke-width="0.6"/>` +
      `<path d="M50 50 L50 40 M50 50 L57 53" stroke="${n.outline}" stroke-width="1" stroke-linecap="round"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${px}" viewBox="0 0 100 100">${body}</svg>`;
}

/** A round swatch; two or three colours render as vertical segments. */
export function renderSwatchSvg(hex: string | readonly string[]): string {
  const colors = validColors(typeof hex === "string" ? [hex] : hex);
  const w = 100 / colors.length;
  let fill = "";
  colors.forEach((c, i) => {
    fill += `<rect x="${(i * w).toFixed(3)}" y="0" width="${(w + 0.2).toFixed(3)}" height="100" fill="${c}"/>`;
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SWATCH_PX}" height="${SWATCH_PX}" viewBox="0 0 100 100">` +
    `<clipPath id="dot"><circle cx="50" cy="50" r="46"/></clipPath>` +
    `<g clip-path="url(#dot)">${fill}</g>` +
    `<circle cx="50" cy="50" r="46" fill="none" stroke="${IMAGE_NEUTRALS.outline}" stroke-opacity="0.35" stroke-width="2"/>` +
    `</svg>`
  );
}

/** Renders whatever parseImagePath returned. */
export function renderImage(parsed: ParsedImage): string {
  return parsed.kind === "product" ? renderProductSvg(parsed) : renderSwatchSvg(parsed.colors);
}

function colorSegment(colors: readonly string[]): string {
  return validColors(colors)
    .map((c) => c.slice(1))
    .join("-");
}

function trimBase(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "");
}

export function productImageUrl(baseUrl: string, family: ImageFamily, colors: readonly string[], size: ImageSize): string {
  if (!isFamily(family) || !isSize(size)) throw new Error("bad image family or size");
  return `${trimBase(baseUrl)}/images/products/${family}/${colorSegment(colors)}.svg?size=${size}`;
}

export function swatchUrl(baseUrl: string, colors: readonly string[]): string {
  return `${trimBase(baseUrl)}/images/swatches/${colorSegment(colors)}.svg`;
}

const PRODUCT_PATH = /^\/images\/products\/([a-z]{1,16})\/([0-9a-f]{6}(?:-[0-9a-f]{6}){0,2})\.svg$/;
const SWATCH_PATH = /^\/images\/swatches\/([0-9a-f]{6}(?:-[0-9a-f]{6}){0,2})\.svg$/;

/**
 * Render arguments for an image URL, or null when the URL does not follow the scheme exactly.
 * `pathname` is the raw path relative to the store root (no percent-decoding: encoded input is rejected);
 * `search` is the query string ("?size=m", "size=m" or "") or URLSearchParams. Product images accept only
 * an optional `size` parameter (default "m"); swatches accept no parameters.
 */
export function parseImagePath(pathname: string, search: string | URLSearchParams = ""): ParsedImage | null {
  if (typeof pathname !== "string" || pathname.length > 200) return null;
  const params = queryParams(search);
  if (params === null) return null;

  const product = PRODUCT_PATH.exec(pathname);
  if (product) {
    const family = product[1]!;
    if (!isFamily(family)) return null;
    let size: ImageSize = "m";
    if (params.length > 1) return null;
    if (params.length === 1) {
      const [key, value] = params[0]!;
      if (key !== "size" || !isSize(value)) return null;
      size = value;
    }
    return { kind: "product", family, colors: splitColors(product[2]!), size };
  }

  const swatch = SWATCH_PATH.exec(pathname);
  if (swatch) {
    if (params.length > 0) return null;
    return { kind: "swatch", colors: splitColors(swatch[1]!) };
  }
  return null;
}

function splitColors(segment: string): string[] {
  return segment.split("-").map((h) => `#${h}`);
}

/** Key/value pairs of a query, or null when it is malformed or suspiciously long. */
function queryParams(search: string | URLSearchParams): Array<[string, string]> | null {
  if (typeof search !== "string") {
    const pairs = [...search.entries()];
    return pairs.length > 4 ? null : pairs;
  }
  const q = search.startsWith("?") ? search.slice(1) : search;
  if (q === "") return [];
  // Strict: the generated URLs only ever carry "size=x"; no encoding, no empty parts.
  if (q.length > 32 || !/^[a-z]+=[a-z]+(?:&[a-z]+=[a-z]+)*$/.test(q)) return null;
  return q.split("&").map((kv) => kv.split("=") as [string, string]);
}
