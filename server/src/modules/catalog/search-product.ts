import { convertRanges, SkuTally, type Ccv, type CurrencyConversion, type PriceRange, type PriceRanges } from "./price-range.ts";
import type { Media, Popularity, Product, Variation } from "./product-schema.ts";
import { imageUrls, type ImageSizeTemplates, type ImageUrls } from "./search-product-images.ts";

/*
 * The spec's "Search product": how a catalog product appears in search, similarity and complete-the-look
 * responses. Pure and linear in SKUs and media, because it runs for every product of every results page.
 */

export type { Ccv, CurrencyConversion, ImageSizeTemplates, PriceRange };

export interface ShapeOptions {
  storeId: string;
  /** Colour composition per colour variation id (DEFAULT_COLOR_ID without variations), from image analysis. */
  colourValues?: ReadonlyMap<string, { hex: string; ratio: number }[]>;
  currencyConversion?: CurrencyConversion;
  imageSizes?: ImageSizeTemplates;
  /** Similarity and complete-the-look responses carry price.first. */
  withFirstPrice?: boolean;
}

export interface ColorVariation {
  name: string;
  swatch?: string;
  images: ImageUrls[];
  values: { hex: string; ratio: number }[];
  productName: string;
  productUrl?: string;
  productId: string;
  price?: PriceRange;
  promoPrice?: PriceRange;
  initialPrice?: PriceRange;
  ccv?: Ccv;
}

export interface SearchProduct {
  id: string;
  productId: string;
  url?: string;
  name: string;
  designer?: string;
  price?: PriceRange;
  promoPrice?: PriceRange;
  initialPrice?: PriceRange;
  customUserData: Record<string, string[]>;
  customProps: Record<string, unknown>;
  productPopularity?: Popularity;
  defaultColorId?: string;
  colors: Record<string, ColorVariation>;
  ccv?: Ccv;
}

/** Key of the single colour of a product without variations. */
export const DEFAULT_COLOR_ID = "default";

/**
 * The service's id for a store's product: opaque (store ids and product ids do not leak), URL-safe, and
 * the same for the same pair forever, so front ends and analytics may keep it. 96 bits of SHA-256.
 */
export function serviceProductId(storeId: string, productId: string): string {
  // NUL cannot occur in either id (the schema forbids control characters), so ("a","bc") and ("ab","c") differ.
  const digest = Bun.SHA256.hash(`${storeId}\u0000${productId}`, "base64url");
  return `sp_${digest.slice(0, 16)}`;
}

/** The SKUs and media of one variation, gathered in one pass over the product. */
interface VariationParts {
  variation: Variation;
  skus: SkuTally;
  media: Media[];
}

interface ProductParts {
  /** In the product's variation order; a repeated variation id keeps its first occurrence. */
  byVariation: Map<string, VariationParts>;
  allSkus: SkuTally;
  /** SKUs and media without a variation id, or naming a variation the product does not list. */
  sharedSkus: SkuTally;
  sharedMedia: Media[];
}

function gatherParts(product: Product): ProductParts {
  const byVariation = new Map<string, VariationParts>();
  for (const variation of product.variations ?? []) {
    if (!byVariation.has(variation.id)) byVariation.set(variation.id, { variation, skus: new SkuTally(), media: [] });
  }
  const parts: ProductParts = { byVariation, allSkus: new SkuTally(), sharedSkus: new SkuTally(), sharedMedia: [] };
  for (const sku of product.skus ?? []) {
    parts.allSkus.add(sku);
    const own = sku.variationId === undefined ? undefined : byVariation.get(sku.variationId);
    (own ? own.skus : parts.sharedSkus).add(sku);
  }
  for (const media of product.media ?? []) {
    const own = media.variationId === undefined ? undefined : byVariation.get(media.variationId);
    (own ? own.media : parts.sharedMedia).push(media);
  }
  return parts;
}

/** The product page with `color=<variation id>`, keeping the store's own query parameters and fragment. */
export function colorProductUrl(productUrl: string | undefined, variationId: string): string | undefined {
  if (productUrl === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(productUrl);
  } catch {
    return productUrl; // validated on indexing; an unparsable stored URL is still better than none
  }
  if (url.searchParams.has("color")) {
    // Replaced, never doubled; searchParams re-serialises the query, acceptable in this rare case.
    url.searchParams.set("color", variationId);
  } else {
    // Appended as text rather than through searchParams, which would re-encode the store's existing parameters.
    const pair = `color=${encodeURIComponent(variationId)}`;
    url.search = url.search ? `${url.search}&${pair}` : pair;
  }
  return url.href;
}

// ccv follows the spec's "present when currency conversion is configured", even when there is no price to convert.
function pricesAndCcv(ranges: PriceRanges, conversion: CurrencyConversion | undefined): PriceRanges & { ccv?: Ccv } {
  return conversion ? { ...ranges, ccv: convertRanges(ranges, conversion) } : ranges;
}

interface ColorInput {
  name: string;
  swatch?: string;
  media: Media[];
  productUrl?: string;
  skus: SkuTally;
}

function toColor(product: Product, key: string, input: ColorInput, opts: ShapeOptions): ColorVariation {
  const { price, promoPrice, initialPrice, ccv } = pricesAndCcv(input.skus.ranges(!!opts.withFirstPrice), opts.currencyConversion);
  // Built member by member in the spec's order: optional members are left out rather than set undefined.
  const color: Partial<ColorVariation> = { name: input.name };
  if (input.swatch !== undefined) color.swatch = input.swatch;
  color.images = input.media.map((m) => imageUrls(m, opts.imageSizes));
  color.values = opts.colourValues?.get(key) ?? [];
  color.productName = product.name; // the variation name travels separately in `name`
  if (input.productUrl !== undefined) color.productUrl = input.productUrl;
  color.productId = product.id;
  addPrices(color, price, promoPrice, initialPrice, ccv);
  return color as ColorVariation;
}

/** The price members that are there, in the spec's order. */
function addPrices(
  to: { price?: PriceRange; promoPrice?: PriceRange; initialPrice?: PriceRange; ccv?: Ccv },
  price: PriceRange | undefined,
  promoPrice: PriceRange | undefined,
  initialPrice: PriceRange | undefined,
  ccv: Ccv | undefined,
): void {
  if (price) to.price = price;
  if (promoPrice) to.promoPrice = promoPrice;
  if (initialPrice) to.initialPrice = initialPrice;
  if (ccv) to.ccv = ccv;
}

function colorsOf(
  product: Product,
  parts: ProductParts,
  opts: ShapeOptions,
): { colors: Record<string, ColorVariation>; defaultColorId?: string } {
  if (parts.byVariation.size === 0) {
    // No variations: one colour with every image and the product's prices, so a front end always has an image.
    // Without media there is nothing such a colour would add, so colors stays empty.
    const media = product.media ?? [];
    if (media.length === 0) return { colors: {} };
    const only = toColor(product, DEFAULT_COLOR_ID, { name: "", media, productUrl: product.url, skus: parts.allSkus }, opts);
    return { colors: { [DEFAULT_COLOR_ID]: only }, defaultColorId: DEFAULT_COLOR_ID };
  }
  // Entries, then Object.fromEntries: a variation id such as "__proto__" must become a key, not a prototype.
  const entries: [string, ColorVariation][] = [];
  let firstAvailable: string | undefined;
  for (const [id, own] of parts.byVariation) {
    // A colour without SKUs (or media) of its own takes the shared ones, like a product-wide size run or photo.
    const skus = own.skus.skuCount > 0 ? own.skus : parts.sharedSkus;
    const media = own.media.length > 0 ? own.media : parts.sharedMedia;
    if (firstAvailable === undefined && skus.anyAvailable) firstAvailable = id;
    const { name, swatch } = own.variation;
    entries.push([id, toColor(product, id, { name: name ?? "", swatch, media, productUrl: colorProductUrl(product.url, id), skus }, opts)]);
  }
  // Prefer a colour the shopper can buy; when none can, the store's first colour.
  return { colors: Object.fromEntries(entries), defaultColorId: firstAvailable ?? entries[0]![0] };
}

function customPropsOf(product: Product, inStock: boolean): Record<string, unknown> {
  // Assigned only when present: `delete` afterwards left the object slower to serialize (2.9 µs against 1.6).
  const props: Record<string, unknown> = {};
  if (product.slug !== undefined) props.slug = product.slug;
  if (product.categories !== undefined) props.categories = product.categories;
  if (product.gender !== undefined) props.gender = product.gender;
  if (product.ageGroup !== undefined) props.ageGroup = product.ageGroup;
  props.inStock = inStock;
  if (product.tags !== undefined) props.tags = product.tags;
  return props;
}

export function toSearchProduct(product: Product, opts: ShapeOptions): SearchProduct {
  const parts = gatherParts(product);
  const { price, promoPrice, initialPrice, ccv } = pricesAndCcv(parts.allSkus.ranges(!!opts.withFirstPrice), opts.currencyConversion);
  const { colors, defaultColorId } = colorsOf(product, parts, opts);
  // A product without SKUs says nothing about stock, so it is not hidden as sold out.
  const inStock = parts.allSkus.skuCount === 0 || parts.allSkus.anyAvailable;
  const shaped: Partial<SearchProduct> = { id: serviceProductId(opts.storeId, product.id), productId: product.id };
  if (product.url !== undefined) shaped.url = product.url;
  shaped.name = product.name;
  if (product.brand !== undefined) shaped.designer = product.brand;
  addPrices(shaped, price, promoPrice, initialPrice, undefined);
  shaped.customUserData = product.customUserData ?? {};
  shaped.customProps = customPropsOf(product, inStock);
  // Indexing checks `data` against the schema its `type` names, so the stored value is the discriminated shape.
  if (product.popularity !== undefined) shaped.productPopularity = product.popularity as Popularity;
  if (defaultColorId !== undefined) shaped.defaultColorId = defaultColorId;
  shaped.colors = colors;
  if (ccv) shaped.ccv = ccv;
  return shaped as SearchProduct;
}
