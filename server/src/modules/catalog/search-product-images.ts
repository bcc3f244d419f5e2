import type { Media } from "./product-schema.ts";

/*
 * Image URLs by size for a search product's colours. A store may route images through a resizing CDN by
 * configuring one URL template per size; without one, every size is the original URL.
 */

/** Store setting: URL template per size with {url} (the original, URL-encoded) or {rawUrl} (as is). */
export interface ImageSizeTemplates {
  s?: string;
  m?: string;
  l?: string;
}

export interface ImageUrls {
  s: string;
  m: string;
  l: string;
}

// The placeholders the settings validator requires ({url} encoded, {rawUrl} as is), so a template that passed
// validation never leaves its placeholder in the URL.
const PLACEHOLDER = /\{(url|rawUrl)\}/g;

/** Fills a size template with `original`; absent template: the original URL. */
export function applySizeTemplate(template: string | undefined, original: string): string {
  if (!template) return original;
  // A replacer function, not a replacement string: "$&" or "$1" inside a URL must not be read as patterns.
  return template.replace(PLACEHOLDER, (_, name: string) => (name === "rawUrl" ? original : encodeURIComponent(original)));
}

/** s and m from the image URL; l from the high-resolution URL when there is one. */
export function imageUrls(media: Media, templates: ImageSizeTemplates | undefined): ImageUrls {
  const large = media.highResUrl ?? media.url;
  return {
    s: applySizeTemplate(templates?.s, media.url),
    m: applySizeTemplate(templates?.m, media.url),
    l: applySizeTemplate(templates?.l, large),
  };
}
