import type { Config } from "../config.ts";
import type { ServiceState } from "../composition/service-state.ts";
import { createEngine } from "../engine/create-engine.ts";
import { createLogger } from "../log.ts";
import { PurchaseSignals } from "../modules/analytics/purchase-signals.ts";
import { RankingInputs } from "../modules/indexing/ranking-inputs.ts";
import { canReindex, StoreReindex } from "../modules/indexing/store-reindex.ts";
import { runCommand } from "./run-command.ts";

/* npm run reindex -- <storeId>: rebuilds the store's search index from the catalog; the service may keep running. */

const USAGE = "Usage: npm run reindex -- <storeId>    rebuilds the store's search index from its catalog (Typesense deployments)";

const count = (n: number) => n.toLocaleString("en-US");

async function reindex(args: string[], config: Config, state: ServiceState): Promise<number> {
  const [storeId, ...rest] = args;
  if (!storeId || rest.length) {
    console.error(USAGE);
    return 2;
  }
  const stores = state.stores;
  if (!(await stores.get(storeId))) {
    console.error(`No store "${storeId}".`);
    return 1;
  }
  const engine = createEngine(config);
  if (!canReindex(engine)) {
    console.error(
      "The embedded engine keeps its index inside the running server, which applies every change as it is made; " +
        "npm run reindex rebuilds a Typesense collection (set TYPESENSE_NODES and TYPESENSE_API_KEY).",
    );
    return 2;
  }
  for (const warning of (await engine.check?.()) ?? []) console.error(warning);
  const catalog = state.catalog;
  const signals = state.purchaseCounts;
  const live = await catalog.countLive(storeId);
  console.log(`Reindexing store ${storeId}: ${count(live)} products in the catalog.`);
  const started = performance.now();
  let shown = 0;
  const job = new StoreReindex({
    catalog,
    tasks: state.tasks,
    ranking: new RankingInputs(stores, signals, state.enrichment),
    purchases: new PurchaseSignals(signals, engine, createLogger(config.logLevel)),
    engine,
    now: Date.now,
  });
  const report = await job.run(storeId, (done) => {
    if (done - shown < 10_000 && done < live) return;
    shown = done;
    console.log(`  ${count(done)} / ${count(live)}`);
  });
  await engine.close();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Store ${storeId} now searches index ${report.index}: ${count(report.documents)} products in ${seconds} s; ` +
      `${count(report.caughtUp)} catalog changes made meanwhile applied again.`,
  );
  if (!report.settled) {
    console.error("The indexing worker's batch in flight at the switch had not committed after 60 s: run the reindex again once it has.");
    return 1;
  }
  return 0;
}

await runCommand(reindex);
