/* Shared fixtures for the catalog tests: the real data sets, read once per test file. */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BrandLexicon } from "../../src/catalog/brands.ts";
import { parseCsvTable } from "../../src/catalog/csv.ts";

export const DATA_DIR = process.env.DEMO_DATA_DIR ?? "/work/shared/data";
export const BASE_URL = "http://localhost:8080";
export const HAVE_DATA = existsSync(join(DATA_DIR, "fashion-product-images/styles.csv"));

type Row = Record<string, string>;
let cache: { styles: Row[]; myntra: Row[]; flipkart: Row[]; brands: BrandLexicon } | undefined;

export function dataSets() {
  if (!cache) {
    const read = (f: string) => parseCsvTable(readFileSync(join(DATA_DIR, f), "utf8")).rows;
    const styles = read("fashion-product-images/styles.csv");
    const myntra = read("myntra-catalog/myntra_products_catalog.csv");
    const flipkart = read("flipkart-sample/product.csv");
    const brands = new BrandLexicon({
      knownBrands: myntra.map((r) => r.ProductBrand ?? ""),
      styleNames: styles.map((r) => r.productDisplayName ?? ""),
    });
    cache = { styles, myntra, flipkart, brands };
  }
  return cache;
}

export function rowWhere(rows: Row[], key: string, value: string): Row {
  const row = rows.find((r) => r[key] === value);
  if (!row) throw new Error(`no row with ${key}=${value}`);
  return row;
}
