/*
 * `npm start`: the service and the demo store on one port. Creates the demo store and its keys if missing,
 * converts the real product data, indexes it through the public API (once per catalog version), and prints the
 * URLs and keys.
 */
import type { Elysia } from "elysia";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../server/src/config.ts";
import { startService } from "../../server/src/start-service.ts";
import { catalogFingerprint, loadDemoCatalog, type DemoCatalogOptions } from "./catalog/index.ts";
import { loadOrCreateDemoKeys } from "./demo-keys.ts";
import { DemoCatalog, demoStoreRoutes } from "./demo-routes.ts";
import { seedCatalog } from "./seed-catalog.ts";
import { seedQueries } from "./seed-queries.ts";

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  mkdirSync(config.dataDir, { recursive: true });
  const keys = loadOrCreateDemoKeys(config.dataDir, config.demoStore);
  const catalog = new DemoCatalog();
  const service = await startService(
    { ...config, demoStore: keys },
    {
      extend: (app) =>
        app.use(demoStoreRoutes(catalog, { storeId: keys.storeId, searchKey: keys.searchKey, analyticsKey: keys.analyticsKey })) as unknown as Elysia,
    },
  );
  const shutdown = async () => {
    await service.stop();
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);

  const baseUrl = config.publicUrl ?? service.url;
  const options: DemoCatalogOptions = { dataDir: config.demoCatalog.dir, baseUrl, limit: config.demoCatalog.limit || undefined };
  if (!existsSync(config.demoCatalog.dir)) {
    console.error(`No product data at ${config.demoCatalog.dir}; set DEMO_CATALOG_DIR. The demo store starts empty.`);
  } else {
    const products = loadDemoCatalog(options);
    catalog.set(products);
    const marker = join(config.dataDir, "demo-catalog.json");
    const fingerprint = catalogFingerprint(options);
    const indexed = existsSync(marker) && JSON.parse(readFileSync(marker, "utf8")).fingerprint === fingerprint;
    if (indexed) {
      console.error(`Demo catalog already indexed (${products.length.toLocaleString("en")} products).`);
    } else {
      const target = { apiUrl: service.url, storeId: keys.storeId, adminKey: keys.adminKey };
      await seedCatalog(target, products);
      const withResults = await seedQueries(target, config.demoCatalog.dir);
      console.error(`Imported popular queries for suggestions (${withResults} with results).`);
      writeFileSync(marker, JSON.stringify({ fingerprint, products: products.length, indexedAt: new Date().toISOString() }));
    }
  }

  console.log(`
Demo store     ${baseUrl}/
API            ${service.url}/1.9/   (docs: ${service.url}/docs)
Store id       ${keys.storeId}
Admin key      ${keys.adminKey}   (server-side only)
Search key     ${keys.searchKey}
Analytics key  ${keys.analyticsKey}
`);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
