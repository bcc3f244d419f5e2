/* Shared fixtures for the catalog tests: the real data sets (demo-store/data, or DEMO_CATALOG_DIR), read once per test file. */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../../server/src/config.ts";
import { BrandLexicon } from "../../src/catalog/brands.ts";
import { parseCsvTable } from "../../src/catalog/csv.ts";

export const DATA_DIR = loadConfig({ DEMO_CATALOG_DIR: process.env.DEMO_CATALOG_DIR }).demoCatalog.dir;
export const BASE_URL = "http://localhost:8080";

// The data is part of the repository: missing data is a broken checkout, to be reported, not a reason to skip.
if (!existsSync(join(DATA_DIR, "fashion-product-images/styles.csv"))) {
  throw new Error(`The demo data is missing at ${DATA_DIR} (demo-store/data is committed with the repository)`);
}

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
