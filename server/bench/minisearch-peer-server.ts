import { createServer } from "node:http";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { MiniSearchSystem } from "../eval/systems/minisearch.ts";

/*
 * The search bench's peer line: MiniSearch, configured as in the relevance eval, behind a plain node:http server,
 * as a developer would put a search box on a catalog without us. GET /search?query=… answers the total and the
 * first 24 products whole (our search answers shaped products too); no facets, sorting, typo vocabulary,
 * logging, keys or compression, which it does not have.
 *
 *   bun server/bench/minisearch-peer-server.ts <products.json>   (prints "listening <port>" when ready)
 */

const PAGE = 24;

const products = (await Bun.file(process.argv[2]!).json()) as Product[];
const system = new MiniSearchSystem();
await system.index(products);
const byId = new Map(products.map((p) => [p.id, JSON.stringify(p)]));

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://peer");
  const ids = await system.search(url.searchParams.get("query") ?? "", Infinity);
  const page = ids.slice(0, PAGE).map((id) => byId.get(id));
  res.writeHead(200, { "content-type": "application/json" });
  res.end(`{"totalProductCount":${ids.length},"products":[${page.join(",")}]}`);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
