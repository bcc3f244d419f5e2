/*
 * `npm start`: the service and the demo store on one port. Creates the demo store and its keys if missing, builds
 * the head script, the InstantSearch client and the staff pages if stale, converts the real product data, indexes
 * it through the public API (once per catalog version), and prints the URLs, the keys and the store's pages with the key each asks for; then, once a minute
 * until it is done, how far product enrichment is. Until the catalog is there, the store's pages say the store is
 * starting (503 with Retry-After) and reload by themselves.
 *
 * A first start overlaps what it can: the conversion runs on a worker thread from the first moment, beside the
 * head script build and the server's start-up, and its bulks are sent as they come while the server indexes the
 * ones before. The converted catalog is kept in DATA_DIR under its fingerprint, so a later start with nothing
 * changed reads it back for the store's pages and indexes nothing.
 */
import type { Elysia } from "elysia";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { isAbsolute, join, relative } from "node:path";
import { ConfigError, loadConfig } from "../../server/src/config.ts";
import { restartWithHeapSizing, startService } from "../../server/src/composition/start-service.ts";
import { buildWidgetIfStale } from "../../widget/scripts/build-if-stale.ts";
import { buildStaffPagesIfStale } from "../../staff-pages/scripts/build-if-stale.ts";
import { buildInstantSearchClientIfStale } from "../../instantsearch-client/scripts/build-if-stale.ts";
import { catalogFingerprint, type DemoCatalogOptions } from "./catalog/index.ts";
import { CatalogCache, keepWhileReading, type Bulk } from "./catalog-cache.ts";
import { Conversion } from "./conversion.ts";
import { loadOrCreateDemoKeys } from "./demo-keys.ts";
import { DemoCatalog } from "./demo-catalog.ts";
import { demoStoreRoutes } from "./demo-routes.ts";
import { probeFirstSearch, searchFinds, type SearchProbe } from "./first-search.ts";
import { LogSink } from "./log-sink.ts";
import { formatDuration, progressBar } from "./progress-bar.ts";
import { applySettings, seedCatalog, type SeedTarget } from "./seed-catalog.ts";
import { seedQueries } from "./seed-queries.ts";
import { storePages } from "./store-pages.ts";
import { followEnrichment } from "./enrichment-follower.ts";

/** A small first bulk gets the first products searchable early; later ones are large, for throughput. */
const BULKS = { first: 1000, rest: 5000 };

const seconds = (ms: number) => formatDuration(ms / 1000);

async function main(): Promise<void> {
  // The demo store serves its product images itself, on this machine: enrichment may fetch them there.
  const config = loadConfig({ ENRICHMENT_ALLOW_PRIVATE_NETWORKS: "true", ...process.env });
  restartWithHeapSizing(config);
  mkdirSync(config.dataDir, { recursive: true });
  const source = { dataDir: config.demoCatalog.dir, limit: config.demoCatalog.limit || undefined };
  const haveData = existsSync(source.dataDir);
  const cache = new CatalogCache(join(config.dataDir, "demo-catalog"));
  // Nothing converted is kept yet, so a conversion is certain: it starts now rather than after the server.
  const conversion = haveData && cache.isEmpty() ? new Conversion(source) : null;
  const widget = buildWidgetIfStale();
  const instantsearchClient = buildInstantSearchClientIfStale();
  const staffPages = buildStaffPagesIfStale();
  const keys = loadOrCreateDemoKeys(config.dataDir, config.demoStore);
  const logs = new LogSink(join(config.dataDir, "logs", "server.log"));
  const catalog = new DemoCatalog();

  // The server reads the head script and the client once, when it starts: their builds (under a second, only when
  // stale) end first.
  const built = await widget;
  if (built.built) console.error(`Built the head script (${built.reason}): ${built.output.split("\n").at(-1)}`);
  const builtClient = await instantsearchClient;
  if (builtClient.built) console.error(`Built the InstantSearch client (${builtClient.reason}): ${builtClient.output.split("\n").at(-1)}`);
  // The staff pages are read on each request, but built before the server answers at the URLs that point at them.
  const builtPages = await staffPages;
  if (builtPages.built) console.error(`Built the staff pages (${builtPages.reason}).`);
  // The demo's own pages (the theme page saves settings with the admin key) are on the service's origin: that
  // origin, and no other, may send an admin key from a browser. Judged from the Origin header, never from Host.
  const publicUrl = config.publicUrl ?? (config.port ? `http://localhost:${config.port}` : null);
  const service = await startService(
    { ...config, publicUrl, demoStore: keys },
    {
      extend: (app) =>
        app.use(
          demoStoreRoutes(
            catalog,
            { storeId: keys.storeId, searchKey: keys.searchKey, analyticsKey: keys.analyticsKey },
            config.staffPagesDir,
          ),
        ) as unknown as Elysia,
      logWrite: logs.write,
    },
  );
  const serverReady = performance.now();
  const shutdown = async () => {
    await service.stop();
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);

  const baseUrl = publicUrl ?? service.url;
  if (!haveData) {
    console.error(`No product data at ${source.dataDir}; set DEMO_CATALOG_DIR. The demo store starts empty.`);
    catalog.expect(0);
  } else {
    const target = { apiUrl: service.url, storeId: keys.storeId, adminKey: keys.adminKey, searchKey: keys.searchKey };
    // Attribute names and generated content in four languages (before the catalog, whose products they describe).
    await applySettings(target, { locales: ["en", "de", "fr", "es"] });
    await prepareCatalog({ ...source, baseUrl }, { target, catalog, cache, conversion, dataDir: config.dataDir, logs, serverReady });
    // The server logs a request in a setImmediate queued when its handler finished, which can be after this
    // process has read the answer: one turn of the same queue lets the last request's line reach the file.
    await yieldToEventLoop();
  }
  logs.toStdout();

  console.log(`
Demo store     ${baseUrl}/
API            ${service.url}/1.9/
Store id       ${keys.storeId}
Admin key      ${keys.adminKey}   (server-side only)
Search key     ${keys.searchKey}
Analytics key  ${keys.analyticsKey}

${storePages(baseUrl)}
`);
  followEnrichment(service.url);
}

interface CatalogContext {
  target: SeedTarget & { searchKey: string };
  catalog: DemoCatalog;
  cache: CatalogCache;
  /** Started early on a first start; null otherwise. */
  conversion: Conversion | null;
  dataDir: string;
  logs: LogSink;
  serverReady: number;
}

/**
 * The store's pages get the converted catalog, kept or converted now; the service gets it through its API unless
 * the marker says this very catalog (same fingerprint) was indexed completely before.
 */
async function prepareCatalog(options: DemoCatalogOptions, c: CatalogContext): Promise<void> {
  const fingerprint = catalogFingerprint(options);
  const marker = join(c.dataDir, "demo-catalog.json");
  const indexed = existsSync(marker) && JSON.parse(readFileSync(marker, "utf8")).fingerprint === fingerprint;
  const kept = c.cache.products(fingerprint);
  if (indexed && kept !== null) {
    console.error(`Demo catalog already indexed (${kept.toLocaleString("en")} products).`);
    c.catalog.addLater(() => readBack(c, fingerprint, marker), kept);
    // The engine loads a store's index on its first search (seconds for the whole catalog): started now rather
    // than when the first shopper searches, and before the pages' copy of the catalog is read back (about 1 s),
    // since both run on this thread and a search matters more than a list a page may never show (a page asked
    // for sooner reads it at once). Not awaited: the store serves meanwhile.
    void searchFinds(c.target, "shirt")
      .then(
        () => console.error(`Search ready ${seconds(performance.now())} after the process started.`),
        () => undefined,
      )
      .then(() => c.catalog.readAll());
    return;
  }
  const cached = c.cache.read(fingerprint);

  let feed: { total: number; bulks: AsyncIterable<Bulk> };
  const conversion = cached ? null : (c.conversion ?? new Conversion({ dataDir: options.dataDir, limit: options.limit }));
  if (conversion) {
    const converting = await conversion.build(options.baseUrl, BULKS);
    feed = { total: converting.total, bulks: keepWhileReading(converting.bulks, c.cache.writer(fingerprint, converting.total)) };
  } else {
    feed = { total: cached!.reduce((sum, b) => sum + b.products.length, 0), bulks: fromArray(cached!) };
  }
  c.catalog.expect(feed.total);
  const phases = await indexCatalog(c.target, feed, c.catalog);
  const withResults = await seedQueries(c.target, options.dataDir);
  writeFileSync(marker, JSON.stringify({ fingerprint, products: feed.total, indexedAt: new Date().toISOString() }));
  const first = phases.firstSearch === null ? "" : `, first search ${seconds(phases.firstSearch)}`;
  const converted = conversion?.finishedAt ? `, converted ${seconds(conversion.finishedAt)}` : "";
  console.error(
    `Since the process started: server up ${seconds(c.serverReady)}${first}${converted}, all indexed ${seconds(phases.indexed)}.`,
  );
  console.error(`Imported popular queries for suggestions (${withResults} with results).`);
  if (c.logs.fileLines > 0) console.error(`Server log of the indexing phase: ${shortPath(c.logs.file)} (${c.logs.fileLines} lines)`);
}

/** The kept catalog for the pages; when it cannot be read, the next start converts and indexes it again. */
function readBack(c: CatalogContext, fingerprint: string, marker: string): Bulk[] {
  const bulks = c.cache.read(fingerprint);
  if (bulks) return bulks;
  rmSync(marker, { force: true });
  console.error("The kept demo catalog could not be read: the store's pages show no products until the next start converts it again.");
  return [];
}

/** Sends the catalog with a progress bar; the store's pages get each bulk as it is sent. Times are performance.now(). */
async function indexCatalog(
  target: SeedTarget & { searchKey: string },
  feed: { total: number; bulks: AsyncIterable<Bulk> },
  catalog: DemoCatalog,
): Promise<{ firstSearch: number | null; indexed: number }> {
  const bar = progressBar("Indexing demo catalog", feed.total);
  const started: { probe?: SearchProbe } = {};
  async function* shown(): AsyncGenerator<Bulk> {
    for await (const bulk of feed.bulks) {
      catalog.add(bulk);
      // Once the first bulk is on its way, watch for the moment a search finds its first product.
      started.probe ??= probeFirstSearch(target, bulk.products[0]?.name ?? "");
      yield bulk;
    }
  }
  try {
    const done = await seedCatalog(target, shown(), { onProgress: (n) => bar.update(n) });
    const indexed = performance.now();
    void catalog.readAll();
    bar.finish(done);
    // Everything is searchable now; a probe that had not seen its product yet sees it on its next try.
    const firstSearch = started.probe ? await Promise.race([started.probe.found, Bun.sleep(2000).then(() => null)]) : null;
    return { firstSearch, indexed };
  } finally {
    started.probe?.stop();
  }
}

/** Relative to the working directory when inside it ("data/logs/server.log"), else absolute. */
function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

async function* fromArray<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
