import type { VariationColours } from "./storage/enrichment-repository.ts";
import type { Product } from "../catalog/product-schema.ts";
import { DEFAULT_COLOR_ID } from "../catalog/search-product.ts";
import type { StageResult } from "./enrichment-worker.ts";
import { extractColours } from "./image-colours.ts";
import { fetchImage, type ImageFetchOptions } from "./image-fetch.ts";
import { colourKeyForHex } from "./text-attributes.ts";

/*
 * The image stage: each colour variation's main image (the product's first image without variations), at most
 * MAX_IMAGES per product, fetched through the guarded fetcher and analysed for its colour composition. The
 * colours become the Search product's `values` and, named from the vocabulary, colour attribute values after
 * those the text stated.
 */

const MAX_IMAGES = 6;
/** A colour named as an attribute only when it covers this much of the product. */
const NAMED_SHARE = 0.15;

/** The images to analyse: colour variation (or DEFAULT_COLOR_ID) -> its main image. */
export function mainImages(p: Product): [string, string][] {
  const media = p.media ?? [];
  if (!p.variations?.length) return media[0] ? [[DEFAULT_COLOR_ID, media[0].url]] : [];
  const shared = media.find((m) => !m.variationId);
  return p.variations
    .flatMap((v): [string, string][] => {
      const own = media.find((m) => m.variationId === v.id) ?? shared;
      return own ? [[v.id, own.url]] : [];
    })
    .slice(0, MAX_IMAGES);
}

/** The vocabulary colours (keys) that cover a good share of a product's images, in order of appearance. */
export function measuredColourKeys(colours: readonly VariationColours[]): string[] {
  const keys = new Set<string>();
  for (const c of colours) for (const v of c.values) if (v.ratio >= NAMED_SHARE) keys.add(colourKeyForHex(v.hex));
  return [...keys];
}

/** Throws when no image could be fetched or read (the worker retries later); null when there is none. */
export async function imageStage(p: Product, text: StageResult, fetchOptions: ImageFetchOptions): Promise<StageResult | null> {
  const images = mainImages(p);
  if (images.length === 0) return null;
  const colours: VariationColours[] = [];
  const problems: string[] = [];
  for (const [variationId, url] of images) {
    const fetched = await fetchImage(url, fetchOptions);
    if (!fetched.ok) {
      problems.push(`${url.slice(0, 200)}: ${fetched.reason} (${fetched.detail})`);
      continue;
    }
    const extracted = await extractColours(fetched.bytes);
    if (!extracted.ok) {
      problems.push(`${url.slice(0, 200)}: ${extracted.reason} (${extracted.detail})`);
      continue;
    }
    colours.push({ variationId, values: extracted.colours.map((c) => ({ hex: c.hex, ratio: Math.round(c.ratio * 1000) / 1000 })) });
  }
  if (colours.length === 0) throw new Error(`no image could be analysed: ${problems.join("; ")}`);
  const named = new Set([...(text.attributes.colour ?? []), ...measuredColourKeys(colours)]);
  return { attributes: { ...text.attributes, ...(named.size ? { colour: [...named] } : {}) }, colours };
}
