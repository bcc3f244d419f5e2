import { Type, type TSchema } from "@sinclair/typebox";
import {
  AGE_GROUPS,
  AVAILABILITIES,
  GENDERS,
  POPULARITY_TYPES,
  type Media as WireMedia,
  type Popularity as WirePopularity,
  type Product as WireProduct,
  type Sku as WireSku,
  type Variation as WireVariation,
} from "@storefront-search/contract";
import { schemaFor } from "../../schema-check.ts";

/*
 * The spec's Product (indexing payload) with the bounds the spec leaves open.
 * Bounds exist so one request cannot make the worker or the engine do unbounded work;
 * they are generous enough for real catalogs (see docs/decisions.md, "Bounds").
 */

// No control characters: ids travel in URL paths, logs and engine filters.
const PLAIN_TEXT = "^[^\\u0000-\\u001f\\u007f]*$";

const text = (maxLength: number, opts: { minLength?: number } = {}) => Type.String({ maxLength, minLength: opts.minLength ?? 0 });
const identifier = () => Type.String({ minLength: 1, maxLength: 256, pattern: PLAIN_TEXT });
const httpUrl = () => Type.String({ maxLength: 2048, pattern: "^https?://[^\\s]+$" });
const list = <T extends TSchema>(item: T, maxItems: number) => Type.Array(item, { maxItems });
const money = () => Type.Number({ minimum: 0, maximum: 1e12 });
const count = () => Type.Number({ minimum: 0, maximum: 1e12 });

export { AGE_GROUPS, AVAILABILITIES, GENDERS, POPULARITY_TYPES };

const literalUnion = <const T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v as T[number])));

// "prefix:value", both parts non-empty.
export const Tag = Type.String({ minLength: 3, maxLength: 256, pattern: "^[^:\\s][^:]*:.+$" });

export const Variation = schemaFor<WireVariation>()(
  Type.Object({ id: identifier(), name: Type.Optional(text(500)), swatch: Type.Optional(httpUrl()) }, { additionalProperties: false }),
);

export const Media = schemaFor<WireMedia>()(
  Type.Object(
    {
      url: httpUrl(),
      variationId: Type.Optional(identifier()),
      highResUrl: Type.Optional(httpUrl()),
      altText: Type.Optional(text(1000)),
    },
    { additionalProperties: false },
  ),
);

export const Sku = schemaFor<WireSku>()(
  Type.Object(
    {
      price: Type.Optional(money()),
      variationId: Type.Optional(identifier()),
      size: Type.Optional(text(100)),
      promoPrice: Type.Optional(money()),
      initialPrice: Type.Optional(money()),
      availability: Type.Optional(literalUnion(AVAILABILITIES)),
      inventoryQuantity: Type.Optional(Type.Number({ minimum: -1e9, maximum: 1e12 })),
      condition: Type.Optional(list(text(1000), 50)),
      tags: Type.Optional(list(Tag, 200)),
    },
    { additionalProperties: false },
  ),
);

export const RatingSummary = Type.Object(
  { rating: text(20, { minLength: 1 }), count: text(20, { minLength: 1 }) },
  { additionalProperties: false },
);

/** The data member of Popularity, one schema per type; checked after `type` is known. */
export const PopularityData = {
  STAR: Type.Object(
    {
      overallRating: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6 })),
      maxRating: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e6 })),
      reviewCount: Type.Optional(count()),
      ratingSummary: Type.Optional(list(RatingSummary, 100)),
    },
    { additionalProperties: false },
  ),
  LIKES: Type.Object({ favLikeCount: Type.Optional(count()) }, { additionalProperties: false }),
  THUMBS: Type.Object({ thumbsUpCount: Type.Optional(count()), thumbsDownCount: Type.Optional(count()) }, { additionalProperties: false }),
} as const;

export const Popularity = Type.Object(
  {
    type: literalUnion(POPULARITY_TYPES),
    data: Type.Union([PopularityData.STAR, PopularityData.LIKES, PopularityData.THUMBS]),
  },
  { additionalProperties: false },
);

// Keys 1 to 100 characters; additionalProperties false, since a TypeBox record accepts any other key otherwise.
export const CustomUserData = Type.Record(Type.String({ pattern: "^[^\\u0000-\\u001f]{1,100}$" }), list(text(1000), 100), {
  maxProperties: 100,
  additionalProperties: false,
});

export const Product = schemaFor<WireProduct>()(
  Type.Object(
    {
      id: identifier(),
      url: Type.Optional(httpUrl()),
      slug: Type.Optional(text(500)),
      name: text(1000, { minLength: 1 }),
      brand: Type.Optional(text(500)),
      description: Type.Optional(text(50_000)),
      features: Type.Optional(list(text(2000), 500)),
      categories: Type.Optional(list(text(500, { minLength: 1 }), 20)),
      gender: Type.Optional(literalUnion(GENDERS)),
      ageGroup: Type.Optional(literalUnion(AGE_GROUPS)),
      relatedIds: Type.Optional(list(identifier(), 1000)),
      fitInformation: Type.Optional(list(text(2000), 100)),
      collections: Type.Optional(list(text(256, { minLength: 1 }), 1000)),
      variations: Type.Optional(list(Variation, 1000)),
      media: Type.Optional(list(Media, 1000)),
      skus: Type.Optional(list(Sku, 5000)),
      tags: Type.Optional(list(Tag, 1000)),
      popularity: Type.Optional(Popularity),
      customUserData: Type.Optional(CustomUserData),
      arrivalDateTs: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e14 })),
    },
    { additionalProperties: false },
  ),
);

export type Product = WireProduct;
export type Variation = WireVariation;
export type Media = WireMedia;
export type Sku = WireSku;
export type Popularity = WirePopularity;

/** Most products one POST /products may carry; a bulk feed sends several requests. */
export const MAX_PRODUCTS_PER_REQUEST = 10_000;
