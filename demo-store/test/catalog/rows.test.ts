/* Conversion of hand-picked real rows: brands, audience, categories, colours, prices. */

import { describe, expect, test } from "bun:test";
import { audienceFromText } from "../../src/catalog/audience.ts";
import { classifyArticleType } from "../../src/catalog/categories.ts";
import { buildProduct } from "../../src/catalog/product-builder.ts";
import { convertStylesRow } from "../../src/catalog/sources/fashion-product-images.ts";
import { convertFlipkartRow } from "../../src/catalog/sources/flipkart-sample.ts";
import { convertMyntraRow } from "../../src/catalog/sources/myntra-catalog.ts";
import { BASE_URL, dataSets, rowWhere } from "./support.ts";

const styles = (id: string) => convertStylesRow(rowWhere(dataSets().styles, "id", id), dataSets().brands);
const myntra = (id: string) => convertMyntraRow(rowWhere(dataSets().myntra, "ProductID", id), dataSets().brands);
const flipkart = (pid: string) => convertFlipkartRow(rowWhere(dataSets().flipkart, "pid", pid), dataSets().brands);

describe("real rows", () => {
  test("styles.csv brands: single and multi-word, sub-lines collapsed, spellings unified", () => {
    const cases: Array<[string, string]> = [
      ["15970", "Turtle"], // Turtle Check Men Navy Blue Shirt ("Check" is the pattern)
      ["39386", "Peter England"], // Peter England Men Party Blue Jeans
      ["59263", "Titan"], // Titan Women Silver Watch
      ["21379", "Manchester United"], // Manchester United Men Solid Black Track Pants
      ["13419", "United Colors of Benetton"], // United Colors of Benetton Men Solid Pink Polo T-shirts
      ["59297", "U.S. Polo Assn."], // U.S. Polo Assn. Men White & Navy Blue Shirt
      ["42419", "Gini and Jony"], // Gini and Jony Girls Knit White Top
      ["28032", "Jockey"], // Jockey ELANCE Men Bikini White Brief 1005
      ["35128", "Allen Solly"], // Allen Solly Woman Purple Bangle (no gender word)
      ["46885", "Ben 10"], // Ben 10 Boys Navy Blue Slippers
      ["5402", "Kalenji"], // Kalenji Ekiden 200 Wn Purple 2011
    ];
    for (const [id, brand] of cases) expect(`${id}: ${styles(id).brand}`).toBe(`${id}: ${brand}`);
    // "Do U Speak Green Men ..." and "Do u speak Green Girls ..." are one brand.
    expect(styles("54924").brand).toBe(styles("54923").brand!);
  });

  test("Myntra and Flipkart brands use the same spelling as styles.csv", () => {
    expect(myntra("10017413").brand).toBe("DKNY");
    expect(flipkart("CGNEDFY77SGZTEQ2").brand).toBe("Roadster"); // lowercase "roadster" in Flipkart
    // Flipkart row without a brand column: brand from the "<brand> <type>" tree level.
    expect(flipkart("WATDQZGHJ9ARVGGK").brand).toBe("Disney");
  });

  test("Boys and Girls become Men/Women with ageGroup Kids", () => {
    expect(styles("46885")).toMatchObject({ gender: "Men", ageGroup: "Kids" }); // Boys
    expect(styles("42419")).toMatchObject({ gender: "Women", ageGroup: "Kids" }); // Girls
    expect(styles("15970")).toMatchObject({ gender: "Men", ageGroup: "Adults" });
    expect(myntra("10003123")).toMatchObject({ gender: "Men", ageGroup: "Kids" }); // Myntra Boys
    expect(myntra("10062265")).toMatchObject({ gender: "Unisex", ageGroup: "Kids" }); // "Unisex Kids"
    expect(flipkart("WATDQZGHJ9ARVGGK")).toMatchObject({ gender: "Unisex", ageGroup: "Kids" }); // for Boys, Girls
    expect(flipkart("SHOEH4GRSUBJGZXE")).toMatchObject({ gender: "Women", ageGroup: "Adults" }); // Ideal For: Women
    expect(audienceFromText("Men, Boys")).toEqual({ gender: "Men", ageGroup: "Adults" });
    expect(audienceFromText("Baby Girl's")).toEqual({ gender: "Women", ageGroup: "Kids" });
    expect(audienceFromText("Senior")).toEqual({});
  });

  test("category hierarchies are root-first in every source", () => {
    expect(styles("15970").categories).toEqual(["Apparel", "Topwear", "Shirts"]);
    expect(styles("59263").categories).toEqual(["Accessories", "Watches"]); // "Watches > Watches" collapsed
    expect(myntra("10017413").categories).toEqual(["Accessories", "Bags", "Trolley Bag"]);
    expect(myntra("10016283").categories).toEqual(["Apparel", "Apparel Set", "Kurta Sets"]); // "... Kurta Set with Jacket"
    expect(myntra("10009781").categories).toEqual(["Apparel", "Bottomwear", "Jeans"]);
    expect(flipkart("SHOEH4GRSUBJGZXE").categories).toEqual(["Footwear", "Womens Footwear", "Ballerinas"]);
    // The brand level "disney wrist watches" is not a category.
    expect(flipkart("WATDQZGHJ9ARVGGK").categories).toEqual(["Watches", "Wrist Watches"]);
  });

  test("article types read from names", () => {
    expect(classifyArticleType("Puma Men Black Slip-On Sneakers")).toBe("Casual Shoes");
    expect(classifyArticleType("Roadster Women Blue Shirt Dress")).toBe("Dresses");
    expect(classifyArticleType("Sassafras Women Black Tie & Dye Top")).toBe("Tops");
    expect(classifyArticleType("Nike Men Grey T-Shirt")).toBe("Tshirts");
    expect(classifyArticleType("Skechers Men Running Shoes")).toBe("Sports Shoes");
    expect(classifyArticleType("Chumbak Printed iPhone 8 and SE Case")).toBe("Phone Cases");
    expect(classifyArticleType("no recognisable words")).toBeUndefined();
  });

  test("colours: the name's colour phrase when it agrees with the data's colour", () => {
    expect(styles("59297").color).toMatchObject({ label: "White & Navy Blue", colors: ["White", "Navy Blue"] });
    expect(styles("15970").color).toMatchObject({ label: "Navy Blue", hexes: ["#1b2a4a"] });
    // Myntra PrimaryColor says " White"; the name says "Brown & Off-White".
    expect(myntra("10017833").color?.colors).toEqual(["Brown", "Off White"]);
    expect(flipkart("SHOEH4GRSUBJGZXE").color?.colors).toEqual(["Red"]);
  });

  test("Flipkart prices and ratings are the real ones", () => {
    // ladela bellies: retail 1724.0, discounted 950.0, rating 5.0
    const ladela = buildProduct(flipkart("SHOEH4KM2W3Z6EH5"), { baseUrl: BASE_URL, isNewArrival: false });
    for (const sku of ladela.skus!) {
      expect(sku.price).toBe(950);
      expect(sku.initialPrice).toBe(1724);
      expect(sku.promoPrice).toBeUndefined();
    }
    expect(ladela.popularity).toMatchObject({ type: "STAR", data: { overallRating: 5, maxRating: 5 } });
    expect(ladela.customUserData?.badges).toContain("Sale");
    // Paper weight: retail equals discounted, so no reduction.
    const weight = buildProduct(flipkart("PWTEB7H2E4KCYUE3"), { baseUrl: BASE_URL, isNewArrival: false });
    expect(weight.skus!.map((s) => [s.price, s.initialPrice])).toEqual([[430, undefined]]);
    expect(flipkart("SHOEH4GRSUBJGZXE").arrivalDateTs).toBe(Date.UTC(2016, 2, 25, 22, 59, 23));
  });

  test("Myntra price is real and the description keeps its text", () => {
    const p = buildProduct(myntra("10017413"), { baseUrl: BASE_URL, isNewArrival: false });
    expect(p.skus!.every((s) => s.price === 11745)).toBe(true);
    expect(p.description).toContain("secured with a TSA lock\nOne handle on the top");
    expect(p.features).toContain("Warranty: 5 years");
  });

  test("styles.csv: season and usage become collections and tags; the description is marked generated", () => {
    const p = buildProduct(styles("15970"), { baseUrl: BASE_URL, isNewArrival: true });
    expect(p.collections).toEqual(expect.arrayContaining(["fall", "fall-2011", "casual", "new-arrivals"]));
    expect(p.tags).toEqual(expect.arrayContaining(["season:fall", "usage:casual", "color:navy-blue", "year:2011"]));
    expect(p.customUserData?.badges).toContain("New");
    expect(p.customUserData?.synthetic).toContain("description");
    expect(new Date(p.arrivalDateTs!).getUTCFullYear()).toBe(2011);
  });
});
