/*
 * Demo catalog: the real product data in demo-store/data (or any copy of it) converted to the service's
 * Product shape, with locally generated images. Synchronous and deterministic: the same options and
 * source files always give the same products in the same order.
 */

import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Product } from "@storefront-search/contract";
import { BrandLexicon } from "./brands.ts";
import { parseCsvTable } from "./csv.ts";
import { type DraftProduct, type RowKey, SkipRow, SOURCE_IDS, type SourceId } from "./draft.ts";
import { buildProduct } from "./product-builder.ts";
import { hashString } from "./seeded-random.ts";
import { convertStylesRow, keyStylesRow, STYLES_FILE } from "./sources/fashion-product-images.ts";
import { convertFlipkartRow, FLIPKART_FILE, keyFlipkartRow } from "./sources/flipkart-sample.ts";
import { convertMyntraRow, keyMyntraRow, MYNTRA_FILE } from "./sources/myntra-catalog.ts";

export type { SourceId };
export { SOURCE_IDS };

/**
 * Bump when the converter's output changes for the same input. The fingerprint also hashes this folder's
 * sources, so a forgotten bump still invalidates caches; the constant documents intended format changes.
 */
export const CONVERTER_VERSION = "demo-catalog/1";

/** Share of each source's newest products that get the "new-arrivals" collection and "New" badge. */
export const NEW_ARRIVAL_SHARE = 0.1;

export interface DemoCatalogOptions {
  /** Folder holding fashion-product-images/, myntra-catalog/ and flipkart-sample/. */
  dataDir: string;
  /** Origin the demo store serves product pages and images from, e.g. "http://localhost:8080". */
  baseUrl: string;
  /** Balanced sample of this many products (round-robin over the sources); all when omitted. */
  limit?: number;
  sources?: Array<SourceId>;
}

export interface SourceStats {
  rows: number;
  /** Valid products the source yields (before `limit`). */
  converted: number;
  /** Products of this source in the output. */
  included: number;
  /** Skipped rows by reason. */
  skipped: Record<string, number>;
}

export interface DemoCatalogResult {
  products: Product[];
  stats: Record<SourceId, SourceStats | undefined>;
  elapsedMs: number;
}

const FILES: Readonly<Record<SourceId, string>> = {
  "fashion-product-images": STYLES_FILE,
  "myntra-catalog": MYNTRA_FILE,
  "flipkart-sample": FLIPKART_FILE,
};

type Row = Record<string, string>;

/** Per source: a cheap key pass (validity, id, arrival) and the full conversion of a valid row. */
const CONVERTERS: Readonly<Record<SourceId, { key: (row: Row) => RowKey; convert: (row: Row, brands: BrandLexicon) => DraftProduct }>> = {
  "fashion-product-images": { key: keyStylesRow, convert: convertStylesRow },
  "myntra-catalog": { key: keyMyntraRow, convert: convertMyntraRow },
  "flipkart-sample": { key: keyFlipkartRow, convert: convertFlipkartRow },
};

interface KeyedRow extends RowKey {
  source: SourceId;
  row: Row;
}

interface Normalized {
  dataDir: string;
  baseUrl: string;
  limit: number | undefined;
  sources: SourceId[];
}

/** Origin without trailing slashes; products carry URLs built from it, which the schema wants http(s) and unspaced. */
function normalizeBaseUrl(raw: string): string {
  const baseUrl = String(raw ?? "").replace(/\/+$/, "");
  if (!/^https?:\/\/[^\s/?#]+(?:\/[^\s?#]*)?$/.test(baseUrl)) throw new Error("baseUrl must be an http(s) URL");
  return baseUrl;
}

function normalizeOptions(opts: DemoCatalogOptions): Normalized {
  return { ...normalizePlanOptions(opts), baseUrl: normalizeBaseUrl(opts.baseUrl) };
}

function normalizePlanOptions(opts: DemoCatalogPlanOptions): Omit<Normalized, "baseUrl"> {
  if (typeof opts.dataDir !== "string" || opts.dataDir === "") throw new Error("dataDir is required");
  const limit = opts.limit;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw new Error("limit must be a non-negative integer");
  const requested = opts.sources ?? [...SOURCE_IDS];
  for (const s of requested) if (!SOURCE_IDS.includes(s)) throw new Error(`unknown source ${String(s)}`);
  // Canonical order, so the order of `sources` does not change the output.
  const sources = SOURCE_IDS.filter((s) => requested.includes(s));
  return { dataDir: resolve(opts.dataDir), limit, sources };
}

function readTable(dataDir: string, file: string): Array<Record<string, string>> {
  const path = join(dataDir, file);
  if (!existsSync(path)) throw new Error(`demo catalog source file missing: ${path}`);
  return parseCsvTable(readFileSync(path, "utf8")).rows;
}

/**
 * Brand vocabulary from the two Myntra files. Built from both regardless of `sources`, so a product's
 * brand does not depend on which other sources were requested.
 */
function buildBrands(dataDir: string, tables: Partial<Record<SourceId, Array<Record<string, string>>>>): BrandLexicon {
  const load = (id: SourceId) => tables[id] ?? (existsSync(join(dataDir, FILES[id])) ? readTable(dataDir, FILES[id]) : []);
  const myntra = load("myntra-catalog");
  const styles = load("fashion-product-images");
  return new BrandLexicon({
    knownBrands: myntra.map((r) => r.ProductBrand ?? ""),
    styleNames: styles.map((r) => r.productDisplayName ?? ""),
  });
}

/** Ids of the newest NEW_ARRIVAL_SHARE of a source's products (newest first, ties by id). */
function newestIds(keys: readonly RowKey[]): string[] {
  const n = Math.ceil(keys.length * NEW_ARRIVAL_SHARE);
  const sorted = [...keys].sort((a, b) => b.arrivalDateTs - a.arrivalDateTs || (a.id < b.id ? -1 : 1));
  return sorted.slice(0, n).map((k) => k.id);
}

/**
 * Interleaves the sources one product at a time, each source in a fixed pseudo-random order (by id
 * hash), so any prefix is a balanced sample and a smaller limit gives a prefix of a larger one.
 */
function roundRobin(perSource: KeyedRow[][], limit: number | undefined): KeyedRow[] {
  const queues = perSource.map((list) =>
    list
      .map((k) => ({ k, h: hashString(k.id) }))
      .sort((a, b) => a.h - b.h || (a.k.id < b.k.id ? -1 : 1))
      .map((x) => x.k),
  );
  const total = queues.reduce((sum, q) => sum + q.length, 0);
  const want = Math.min(limit ?? total, total);
  const out: KeyedRow[] = [];
  for (let i = 0; out.length < want; i++) {
    for (const q of queues) {
      if (i < q.length && out.length < want) out.push(q[i]!);
    }
  }
  return out;
}

/** What the conversion needs besides the origin that product URLs point at. */
export type DemoCatalogPlanOptions = Omit<DemoCatalogOptions, "baseUrl">;

/** Pass 1 done: which rows become products, in output order. Needs no base URL, so it can run before a server has one. */
export interface DemoCatalogPlan {
  /** Products the plan yields. */
  total: number;
  stats: Record<SourceId, SourceStats | undefined>;
  chosen: KeyedRow[];
  newIds: Set<string>;
  tables: Partial<Record<SourceId, Row[]>>;
  dataDir: string;
}

export function planDemoCatalog(opts: DemoCatalogPlanOptions): DemoCatalogPlan {
  const o = normalizePlanOptions(opts);
  const tables: Partial<Record<SourceId, Row[]>> = {};
  for (const s of o.sources) tables[s] = readTable(o.dataDir, FILES[s]);

  // Every row: validity, ids and arrival dates. New arrivals are ranked over the whole source, so a
  // product's badge does not depend on `limit`.
  const stats = {} as Record<SourceId, SourceStats | undefined>;
  const perSource: KeyedRow[][] = [];
  const newIds = new Set<string>();
  for (const s of o.sources) {
    const rows = tables[s]!;
    const st: SourceStats = { rows: rows.length, converted: 0, included: 0, skipped: {} };
    const keyed: KeyedRow[] = [];
    const seen = new Set<string>();
    for (const row of rows) {
      try {
        const k = CONVERTERS[s].key(row);
        if (seen.has(k.id)) throw new SkipRow("duplicate id");
        seen.add(k.id);
        keyed.push({ ...k, source: s, row });
      } catch (e) {
        if (!(e instanceof SkipRow)) throw e;
        st.skipped[e.reason] = (st.skipped[e.reason] ?? 0) + 1;
      }
    }
    st.converted = keyed.length;
    for (const id of newestIds(keyed)) newIds.add(id);
    stats[s] = st;
    perSource.push(keyed);
  }
  const chosen = roundRobin(perSource, o.limit);
  return { total: chosen.length, stats, chosen, newIds, tables, dataDir: o.dataDir };
}

/** Pass 2, only for the chosen rows: full conversion, one product at a time (`stats.included` counts them). */
export function* buildDemoCatalog(plan: DemoCatalogPlan, baseUrl: string): Generator<Product> {
  const origin = normalizeBaseUrl(baseUrl);
  if (plan.chosen.length === 0) return;
  const brands = buildBrands(plan.dataDir, plan.tables);
  for (const k of plan.chosen) {
    const draft = CONVERTERS[k.source].convert(k.row, brands);
    plan.stats[k.source]!.included++;
    yield buildProduct(draft, { baseUrl: origin, isNewArrival: plan.newIds.has(k.id) });
  }
}

/** Products plus per-source counts and timing. */
export function loadDemoCatalogWithStats(opts: DemoCatalogOptions): DemoCatalogResult {
  const started = performance.now();
  const o = normalizeOptions(opts);
  const plan = planDemoCatalog(o);
  const products = [...buildDemoCatalog(plan, o.baseUrl)];
  return { products, stats: plan.stats, elapsedMs: performance.now() - started };
}

/**
 * The demo catalog as indexing payloads. Every product passes the server's Product schema; ids are
 * unique across sources ("fpi-", "myn-", "fk-" prefixes); a product's content does not depend on
 * `limit` or `sources`, and a smaller limit gives a prefix of a larger one.
 */
export function loadDemoCatalog(opts: DemoCatalogOptions): Product[] {
  return loadDemoCatalogWithStats(opts).products;
}

/**
 * Changes whenever loadDemoCatalog(opts) could return something different: converter version,
 * normalised options, and size and modification time of every source file read.
 */
export function catalogFingerprint(opts: DemoCatalogOptions): string {
  const o = normalizeOptions(opts);
  const files = SOURCE_IDS.map((s) => {
    const path = join(o.dataDir, FILES[s]);
    try {
      const st = statSync(path);
      return { file: FILES[s], size: st.size, mtimeMs: st.mtimeMs };
    } catch {
      return { file: FILES[s], missing: true };
    }
  });
  const input = JSON.stringify({ version: CONVERTER_VERSION, code: converterCodeHash(), ...o, limit: o.limit ?? null, files });
  return createHash("sha256").update(input).digest("hex");
}

let codeHash: string | undefined;

/** Hash of the converter's own .ts files (this folder and below), computed once per process. */
function converterCodeHash(): string {
  if (codeHash === undefined) {
    const root = fileURLToPath(new URL(".", import.meta.url));
    const hash = createHash("sha256");
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith(".ts")) hash.update(path.slice(root.length)).update("\u0000").update(readFileSync(path));
      }
    };
    walk(root);
    codeHash = hash.digest("hex");
  }
  return codeHash;
}
