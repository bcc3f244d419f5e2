/*
 * Size labels per article type. None of the data sets has sizes; these are the usual Indian-retail
 * runs for each kind of article, chosen by the article profile, gender and age group.
 */

import type { ArticleProfile } from "./categories.ts";

export type Audience = { gender?: "Men" | "Women" | "Unisex"; ageGroup?: "Adults" | "Teens" | "Kids" };

const APPAREL = ["XS", "S", "M", "L", "XL", "XXL"] as const;
const KIDS_APPAREL = ["2-3Y", "4-5Y", "6-7Y", "8-9Y", "10-11Y", "12-13Y"] as const;
const WAIST = ["28", "30", "32", "34", "36"] as const;
const WOMEN_WAIST = ["26", "28", "30", "32", "34"] as const;
const MEN_SHOES = ["UK 6", "UK 7", "UK 8", "UK 9", "UK 10", "UK 11"] as const;
const WOMEN_SHOES = ["UK 3", "UK 4", "UK 5", "UK 6", "UK 7", "UK 8"] as const;
const UNISEX_SHOES = ["UK 5", "UK 6", "UK 7", "UK 8", "UK 9", "UK 10"] as const;
const KIDS_SHOES = ["UK 10C", "UK 12C", "UK 1", "UK 2", "UK 3", "UK 4"] as const;
const BRA = ["32B", "34B", "36B", "34C", "36C", "38C"] as const;

/**
 * Size labels for one product, or [undefined] for products sold without a size (cosmetics, home goods):
 * those get one SKU with no size field.
 */
export function sizesFor(sizing: ArticleProfile["sizing"], audience: Audience): ReadonlyArray<string | undefined> {
  const kids = audience.ageGroup === "Kids";
  switch (sizing) {
    case "apparel":
      return kids ? KIDS_APPAREL : APPAREL;
    case "waist":
      if (kids) return KIDS_APPAREL;
      return audience.gender === "Women" ? WOMEN_WAIST : WAIST;
    case "shoe":
      if (kids) return KIDS_SHOES;
      if (audience.gender === "Women") return WOMEN_SHOES;
      if (audience.gender === "Men") return MEN_SHOES;
      return UNISEX_SHOES;
    case "bra":
      return BRA;
    case "one-size":
      return ["One Size"];
    case "none":
      return [undefined];
  }
}
