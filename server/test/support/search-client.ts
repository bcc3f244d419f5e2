import { expect } from "bun:test";
import type { Product } from "../../src/modules/catalog/product-schema.ts";
import type { KeyKind, TestServer } from "./test-server.ts";

/* Small typed helpers for the search and suggestions tests: query strings, GET as a key kind, bulk indexing. */

export interface SearchProductBody {
  id: string;
  productId: string;
  name: string;
  designer?: string;
  price?: { min: number; max: number };
  [key: string]: unknown;
}

export interface FacetValueBody {
  key: string;
  name: string;
  count: number;
  lb?: number;
  ub?: number;
}

export interface FacetBody {
  key: string;
  name: string;
  values: FacetValueBody[];
  shownValues?: number;
}

export interface SearchBody {
  totalProductCount: number;
  products: SearchProductBody[];
  fallback: boolean;
  facets: FacetBody[];
  spellSuggestions: string[];
  query?: string;
  collection?: string;
  typedQuery?: string;
  queryFacets?: { key: string; values: string[]; words: string }[];
  recovered?: boolean;
}

export interface SuggestionBody {
  id: string;
  label: string;
  count: number;
}

export interface SuggestionsBody {
  suggestions: SuggestionBody[];
  designers: SuggestionBody[];
  query: string;
}

export type Params = Record<string, string | number | boolean | undefined>;

/** A query string from parameters (undefined ones left out), URL-encoded. */
export function queryString(params: Params): string {
  const usp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) usp.append(k, String(v));
  const text = usp.toString();
  return text ? `?${text}` : "";
}

/** GET a route with parameters as `kind`; the status and the parsed JSON body. */
export async function getJson<T = unknown>(
  s: TestServer,
  path: string,
  params: Params = {},
  kind: KeyKind | null = "search",
): Promise<{ status: number; body: T }> {
  const res = await s.call(kind, "GET", `/1.9${path}${queryString(params)}`);
  return { status: res.status, body: (await res.json()) as T };
}

/** GET /search that must succeed. */
export async function search(s: TestServer, params: Params): Promise<SearchBody> {
  const { status, body } = await getJson<SearchBody>(s, "/search", params);
  if (status !== 200) throw new Error(`search ${JSON.stringify(params)} answered ${status}: ${JSON.stringify(body)}`);
  return body;
}

/** Every product of a search, walking pages of `pageSize`. */
export async function searchAll(s: TestServer, params: Params, pageSize = 100): Promise<{ total: number; products: SearchProductBody[] }> {
  const products: SearchProductBody[] = [];
  let total = 0;
  for (let from = 0; ; from += pageSize) {
    const page = await search(s, { ...params, from, pageSize });
    total = page.totalProductCount;
    products.push(...page.products);
    if (page.products.length < pageSize || from + pageSize >= total) break;
  }
  return { total, products };
}

/** Indexes products through the public API (requests of at most 10,000) and waits until every task completes. */
export async function indexProducts(s: TestServer, products: readonly Product[]): Promise<void> {
  const taskIds: string[] = [];
  for (let i = 0; i < products.length; i += 10_000) {
    const res = await s.call("admin", "POST", "/1.9/products", products.slice(i, i + 10_000));
    expect(res.status).toBe(202);
    taskIds.push(((await res.json()) as { taskId: string }).taskId);
  }
  for (const id of taskIds) expect(await s.waitForTask(id, 60_000)).toMatchObject({ status: "complete" });
}

/** Shopper events, each `[type, data]`, sent through POST /tracking as one shopper (their session `<userId>-visit`). */
export async function trackAs(s: TestServer, userId: string, events: readonly [string, Record<string, unknown>][]): Promise<void> {
  const res = await s.call(
    "analytics",
    "POST",
    "/1.9/tracking",
    events.map(([type, data]) => ({ type, data, userId, sessionId: `${userId}-visit` })),
  );
  expect(res.status).toBe(200);
}

export async function deleteProduct(s: TestServer, id: string): Promise<void> {
  const res = await s.call("admin", "DELETE", `/1.9/products/${encodeURIComponent(id)}`);
  expect(res.status).toBe(202);
  const { taskId } = (await res.json()) as { taskId: string };
  expect(await s.waitForTask(taskId)).toMatchObject({ status: "complete" });
}

/** Polls `probe` until it returns true or `timeoutMs` passes; returns whether it succeeded. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs: number, intervalMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await Bun.sleep(intervalMs);
  }
}
