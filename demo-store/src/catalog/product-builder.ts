/*
 * DraftProduct -> Product: adds URLs, colour variations, generated image media, SKUs, popularity,
 * merchandising collections, tags and badges. The only place where synthetic data is attached.
 */

import type { Media, Product, Variation } from "@storefront-search/contract";
import type { DraftProduct } from "./draft.ts";
import { productImageUrl, swatchUrl } from "./images.ts";
import { popularityFor } from "./popularity.ts";
import { buildSkus, priceFor } from "./pricing.ts";
import { sizesFor } from "./sizes.ts";
import { slugify } from "./text.ts";

/** Used when a product has no known colour: the image then shows shape only, not a colour claim. */
export const UNKNOWN_COLOR_HEX = "#9e9e9e";

export const SOURCE_TAG: Readonly<Record<DraftProduct["source"], string>> = {
  "fashion-product-images": "source:fashion-product-images",
  "myntra-catalog": "source:myntra",
  "flipkart-sample": "source:flipkart",
};

const HANDLE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const TAG = /^[a-z]+:[a-z0-9][a-z0-9.-]*$/;

export interface BuildContext {
  baseUrl: string;
  /** Among the newest arrivals of its source (see index.ts). */
  isNewArrival: boolean;
}

export function buildProduct(d: DraftProduct, ctx: BuildContext): Product {
  const product: Product = { id: d.id, name: d.name };
  product.url = `${ctx.baseUrl}/products/${encodeURIComponent(d.id)}`;
  product.slug = `${slugify(d.name).slice(0, 80).replace(/-+$/, "")}-${slugify(d.id)}`;
  if (d.brand) product.brand = d.brand;
  if (d.description) product.description = d.description;
  if (d.features.length > 0) product.features = d.features;
  if (d.fitInformation.length > 0) product.fitInformation = d.fitInformation;
  if (d.categories && d.categories.length > 0) product.categories = d.categories;
  if (d.gender) product.gender = d.gender;
  if (d.ageGroup) product.ageGroup = d.ageGroup;

  // One variation per product colour: every data set lists one colour (or one colour combination) per row.
  const variations: Variation[] = [];
  const media: Media[] = [];
  const family = d.profile.family;
  if (d.color) {
    const variationId = `${d.id}-c-${slugify(d.color.label) || "color"}`;
    variations.push({ id: variationId, name: d.color.label, swatch: swatchUrl(ctx.baseUrl, d.color.hexes) });
    media.push({
      url: productImageUrl(ctx.baseUrl, family, d.color.hexes, "m"),
      variationId,
      highResUrl: productImageUrl(ctx.baseUrl, family, d.color.hexes, "l"),
      altText: `${d.name} in ${d.color.label}`,
    });
  } else {
    media.push({
      url: productImageUrl(ctx.baseUrl, family, [UNKNOWN_COLOR_HEX], "m"),
      highResUrl: productImageUrl(ctx.baseUrl, family, [UNKNOWN_COLOR_HEX], "l"),
      altText: d.name,
    });
  }
  if (variations.length > 0) product.variations = variations;
  product.media = media;

  const price = priceFor(d.id, d.profile, d.price, { syntheticReductions: d.syntheticReductions });
  const sizes = sizesFor(d.profile.sizing, { gender: d.gender, ageGroup: d.ageGroup });
  product.skus = buildSkus(d.id, price, variations.length > 0 ? variations.map((v) => v.id) : [undefined], sizes);

  const popularity = popularityFor(d.id, d.rating);
  if (popularity) product.popularity = popularity;

  const onSale = price.initialPrice !== undefined || price.promoPrice !== undefined;
  // Handles and tags are built from data words; one that normalised to nothing must not fail the schema.
  const collections = new Set(d.collections.filter((c) => HANDLE.test(c)));
  if (ctx.isNewArrival) collections.add("new-arrivals");
  if (onSale) collections.add("sale");
  if (collections.size > 0) product.collections = [...collections];

  const tags = new Set<string>([SOURCE_TAG[d.source], ...d.tags]);
  if (d.color) for (const c of d.color.colors) tags.add(`color:${slugify(c)}`);
  if (d.articleType) tags.add(`type:${slugify(d.articleType)}`);
  product.tags = [...tags].filter((t) => TAG.test(t));

  const badges: string[] = [];
  if (ctx.isNewArrival) badges.push("New");
  if (onSale) badges.push("Sale");
  const synthetic = ["skus.inventoryQuantity", "skus.availability", "skus.size"];
  if (!price.realPrice) synthetic.push("skus.price");
  if (price.initialPrice !== undefined && !price.realInitialPrice) synthetic.push("skus.initialPrice");
  if (price.promoPrice !== undefined) synthetic.push("skus.promoPrice");
  if (popularity) synthetic.push(d.rating ? "popularity.reviewCount" : "popularity");
  if (d.arrivalSynthetic) synthetic.push("arrivalDateTs");
  if (d.descriptionGenerated) synthetic.push("description");
  const custom: Record<string, string[]> = { synthetic };
  if (badges.length > 0) custom.badges = badges;
  product.customUserData = custom;

  product.arrivalDateTs = d.arrivalDateTs;
  return product;
}
