import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SeedTarget } from "./seed-catalog.ts";

/*
 * A fresh demo has no shoppers yet, so its typeahead would only know catalog terms. Real fashion queries with
 * their popularity (demo-store/data/query-suggestions) are imported as the store's past queries, through the
 * admin API a store migrating from another provider would use, with the categories each led to under that provider
 * (the export's `hierarchical_categories.lvl1`): evidence of what a query means that the service learns from.
 */
export async function seedQueries(t: SeedTarget, dataDir: string): Promise<number> {
  const file = join(dataDir, "query-suggestions", "fashion-query-suggestions.json");
  const rows = JSON.parse(readFileSync(file, "utf8")) as { query: string; popularity: number; "hierarchical_categories.lvl1"?: string[] }[];
  const queries = rows
    .filter((r) => r.query?.trim())
    .map((r) => {
      const categories = (r["hierarchical_categories.lvl1"] ?? []).filter((c) => typeof c === "string" && c.trim()).slice(0, 20);
      return { query: r.query, searches: Math.max(0, r.popularity) + 1, ...(categories.length ? { categories } : {}) };
    });
  const res = await fetch(`${t.apiUrl}/1.9/query-log`, {
    method: "POST",
    headers: { "x-service-store-id": t.storeId, "x-service-api-key": t.adminKey, "content-type": "application/json" },
    body: JSON.stringify(queries),
  });
  const body = (await res.json()) as { withResults?: number; message?: string };
  if (!res.ok) throw new Error(`query log import answered ${res.status}: ${body.message}`);
  return body.withResults ?? 0;
}
