import type { Product } from "../../src/modules/catalog/product-schema.ts";
import { seedQueries } from "../../../demo-store/src/seed-queries.ts";
import { startIndexedServer, type IndexedChildServer } from "../../test/support/indexed-child-server.ts";
import { demoDataDir } from "../catalog.ts";
import type { SearchSystem } from "./system.ts";

/*
 * Our engine as a shopper gets it: the real server in its own process, the products indexed through
 * POST /products, each query a GET /1.9/search (default sort, relevance; no facets; the match set paged through,
 * the cheapest by sortBy=pricea). Over HTTP rather than
 * SearchService in process: the whole path (parameter parsing, fallback, spell handling) is what is judged, and at
 * a few milliseconds per query the eval's time goes to indexing either way.
 */
/** Results per page when reading a whole match set, and the deepest a search pages (search-params.ts). */
const PAGE = 100;
const MAX_WINDOW = 10_000;

export class OurEngine implements SearchSystem {
  readonly name = "ours";
  readonly config =
    "the real server (embedded SQLite engine), GET /1.9/search?query=…&pageSize=10, default settings, after the text stage of enrichment ran, with the demo's query log imported (its categories as evidence) and the learned meaning trained";
  private server: IndexedChildServer | undefined;

  /** Queries whose last answer was recovered (the products nearest their meaning, no match of their words). */
  readonly recovered = new Set<string>();

  async index(products: readonly Product[]): Promise<void> {
    const server = (this.server = await startIndexedServer(products, {}, { enriched: true }));
    // As the demo store does: the store's past queries, with what each led to under its previous provider, then
    // the store's learned meaning trained on them and the catalog (rather than waiting for its quiet period).
    await seedQueries(
      { apiUrl: server.url, storeId: server.adminHeaders["x-service-store-id"]!, adminKey: server.adminHeaders["x-service-api-key"]! },
      demoDataDir(),
    );
    const trained = await fetch(`${server.url}/1.9/meaning/train`, { method: "POST", headers: server.adminHeaders });
    if (!trained.ok) throw new Error(`POST /meaning/train answered ${trained.status}: ${await trained.text()}`);
  }

  async search(query: string, k: number): Promise<string[]> {
    return (await this.page(query, { pageSize: String(k) })).ids;
  }

  async matchSet(query: string): Promise<string[]> {
    const ids: string[] = [];
    for (let from = 0; ; from += PAGE) {
      const page = await this.page(query, { from: String(from), pageSize: String(PAGE) });
      ids.push(...page.ids);
      if (page.ids.length < PAGE || from + PAGE >= Math.min(page.total, MAX_WINDOW)) return ids;
    }
  }

  async cheapest(query: string, k: number): Promise<string[]> {
    return (await this.page(query, { pageSize: String(k), sortBy: "pricea" })).ids;
  }

  private async page(query: string, params: Record<string, string>): Promise<{ ids: string[]; total: number }> {
    const server = this.server;
    if (!server) throw new Error("index first");
    const url = `${server.url}/1.9/search?${new URLSearchParams({ query, ...params })}`;
    const res = await fetch(url, { headers: server.searchHeaders });
    if (res.status !== 200) throw new Error(`GET /search ${JSON.stringify(query)} answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { totalProductCount: number; products: Array<{ productId: string }>; recovered?: boolean };
    if (body.recovered) this.recovered.add(query);
    else this.recovered.delete(query);
    return { ids: body.products.map((p) => p.productId), total: body.totalProductCount };
  }

  async close(): Promise<void> {
    await this.server?.stop();
  }
}
