/*
 * Prints demo catalog statistics, or the products as JSON:
 *   bun demo-store/src/catalog/cli.ts [--data DIR] [--base-url URL] [--limit N] [--json]
 * DIR defaults to the service's DEMO_CATALOG_DIR (demo-store/data).
 */

import { loadConfig } from "../../../server/src/config.ts";
import { catalogFingerprint, loadDemoCatalogWithStats, type DemoCatalogOptions } from "./index.ts";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const limitText = arg("--limit");
const opts: DemoCatalogOptions = {
  dataDir: arg("--data") ?? loadConfig(process.env).demoCatalog.dir,
  baseUrl: arg("--base-url") ?? "http://localhost:8080",
  limit: limitText === undefined ? undefined : Number(limitText),
};
const result = loadDemoCatalogWithStats(opts);
if (process.argv.includes("--json")) {
  process.stdout.write(JSON.stringify(result.products));
} else {
  console.log(
    JSON.stringify(
      {
        products: result.products.length,
        elapsedMs: Math.round(result.elapsedMs),
        fingerprint: catalogFingerprint(opts),
        sources: result.stats,
      },
      null,
      2,
    ),
  );
}
