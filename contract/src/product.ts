/*
 * A product as a store sends it (POST /products) and as the catalog answers it: the spec's Product. The server
 * validates it with bounds the spec leaves open (server/src/modules/catalog/product-schema.ts, held to these types).
 */

export const GENDERS = ["Women", "Men", "Unisex"] as const;
export const AGE_GROUPS = ["Adults", "Teens", "Kids"] as const;
export const AVAILABILITIES = ["InStock", "OutOfStock"] as const;
export const POPULARITY_TYPES = ["STAR", "LIKES", "THUMBS"] as const;

export type Gender = (typeof GENDERS)[number];
export type AgeGroup = (typeof AGE_GROUPS)[number];
export type Availability = (typeof AVAILABILITIES)[number];
export type PopularityType = (typeof POPULARITY_TYPES)[number];

export type Variation = {
  id: string;
  name?: string;
  swatch?: string;
};

export type Media = {
  url: string;
  variationId?: string;
  highResUrl?: string;
  altText?: string;
};

export type Sku = {
  price?: number;
  variationId?: string;
  size?: string;
  promoPrice?: number;
  initialPrice?: number;
  availability?: Availability;
  inventoryQuantity?: number;
  condition?: string[];
  /** "prefix:value". */
  tags?: string[];
};

export type RatingSummary = {
  rating: string;
  count: string;
};

export type StarPopularity = {
  overallRating?: number;
  maxRating?: number;
  reviewCount?: number;
  ratingSummary?: RatingSummary[];
};

export type LikesPopularity = {
  favLikeCount?: number;
};

export type ThumbsPopularity = {
  thumbsUpCount?: number;
  thumbsDownCount?: number;
};

/** What each popularity type's data holds. */
export type PopularityDataOf = {
  STAR: StarPopularity;
  LIKES: LikesPopularity;
  THUMBS: ThumbsPopularity;
};

/** A product's popularity: its data is the one its type names. */
export type Popularity = { [K in PopularityType]: { type: K; data: PopularityDataOf[K] } }[PopularityType];

export type Product = {
  id: string;
  url?: string;
  slug?: string;
  name: string;
  brand?: string;
  description?: string;
  features?: string[];
  categories?: string[];
  gender?: Gender;
  ageGroup?: AgeGroup;
  relatedIds?: string[];
  fitInformation?: string[];
  collections?: string[];
  variations?: Variation[];
  media?: Media[];
  skus?: Sku[];
  /** "prefix:value". */
  tags?: string[];
  /**
   * Checked as its type's data (PopularityDataOf) after the type is read; a schema of the whole product can only
   * say it is one of the three.
   */
  popularity?: { type: PopularityType; data: StarPopularity | LikesPopularity | ThumbsPopularity };
  customUserData?: Record<string, string[]>;
  arrivalDateTs?: number;
};
