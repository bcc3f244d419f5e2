/*
 * Gender and age group. The service knows Women/Men/Unisex and Adults/Teens/Kids; the data sets say
 * Boys/Girls/Kids/Baby, which become a gender plus ageGroup "Kids".
 */

import type { AgeGroup, Gender } from "./draft.ts";

export interface AudienceInfo {
  gender?: Gender;
  ageGroup?: AgeGroup;
}

/** styles.csv / Myntra gender column: Men, Women, Unisex, Boys, Girls, "Unisex Kids". */
export function audienceFromColumn(value: string): AudienceInfo {
  switch (value.trim().toLowerCase()) {
    case "men":
      return { gender: "Men", ageGroup: "Adults" };
    case "women":
      return { gender: "Women", ageGroup: "Adults" };
    case "unisex":
      return { gender: "Unisex", ageGroup: "Adults" };
    case "boys":
      return { gender: "Men", ageGroup: "Kids" };
    case "girls":
      return { gender: "Women", ageGroup: "Kids" };
    case "unisex kids":
    case "kids":
      return { gender: "Unisex", ageGroup: "Kids" };
    default:
      return {};
  }
}

/**
 * Audience from free text such as Flipkart's "Ideal For" ("Men, Boys", "Baby Girl's", "Women, Girls")
 * or category/name words ("womens clothing", "girl's dress"). Adults win over kids when both appear,
 * because an item for "Men, Boys" is sold in the men's department.
 */
export function audienceFromText(text: string): AudienceInfo {
  const t = text.toLowerCase().replace(/['’]/g, "");
  const women = /\b(?:women|womens|woman|ladies|lady)\b/.test(t);
  const men = /\b(?:men|mens|man|gents)\b/.test(t);
  const girls = /\b(?:girls?|baby girls?)\b/.test(t);
  const boys = /\b(?:boys?|baby boys?)\b/.test(t);
  const kidsOnly = /\b(?:kids|kid|baby|babies|infants?|toddlers?)\b/.test(t);
  const unisex = /\b(?:unisex|couple)\b/.test(t);

  const adults = women || men || unisex;
  const female = women || (!adults && girls);
  const male = men || (!adults && boys);
  if (adults) {
    const gender: Gender = unisex || (female && male) ? "Unisex" : female ? "Women" : "Men";
    return { gender, ageGroup: "Adults" };
  }
  if (girls || boys || kidsOnly) {
    const gender: Gender = (girls && boys) || (!girls && !boys) ? "Unisex" : girls ? "Women" : "Men";
    return { gender, ageGroup: "Kids" };
  }
  return {};
}
