import type { Product } from "../../src/modules/catalog/product-schema.ts";
import { startIndexedServer, type IndexedChildServer } from "../../test/support/indexed-child-server.ts";
import type { SearchSystem } from "./system.ts";

/*
 * Our engine as a shopper gets it: the real server in its own process, the products indexed through
 * POST /products, each query a GET /1.9/search (default sort, relevance; no facets). Over HTTP rather than
 * SearchService in process: the whole path (parameter parsing, fallback, spell handling) is what is judged, and at
 * a few milliseconds per query the eval's time goes to indexing either way.
 */
export class OurEngine implements SearchSystem {
  readonly name = "ours";
  readonly config = "the real server (embedded SQLite engine), GET /1.9/search?query=…&pageSize=10, default settings, after the text stage of enrichment ran";
  private server: IndexedChildServer | undefined;

  async index(products: readonly Product[]): Promise<void> {
    this.server = await startIndexedServer(products, {}, { enriched: true });
  }

  async search(query: string, k: number): Promise<string[]> {
    const server = this.server;
    if (!server) throw new Error("index first");
    const url = `${server.url}/1.9/search?${new URLSearchParams({ query, pageSize: String(k) })}`;
    const res = await fetch(url, { headers: server.searchHeaders });
    if (res.status !== 200) throw new Error(`GET /search ${JSON.stringify(query)} answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { products: Array<{ productId: string }> };
    return body.products.map((p) => p.productId);
  }

  async close(): Promise<void> {
    await this.server?.stop();
  }
}
