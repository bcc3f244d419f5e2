/*
 * Converts the demo catalog on its own thread: the service indexes on the main thread of the same process, so
 * converting there would take turns with indexing instead of running beside it on the second core. Bulks are
 * posted as they are ready, already serialised for POST /products. Messages: see conversion.ts.
 */
import { buildDemoCatalog, planDemoCatalog, type DemoCatalogPlan } from "./catalog/index.ts";
import type { ToWorker, FromWorker } from "./conversion.ts";

declare const self: Worker;

let plan: DemoCatalogPlan | null = null;
const post = (message: FromWorker) => self.postMessage(message);

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  try {
    if (message.type === "plan") {
      // Pass 1 needs no base URL, so it runs while the server is still starting.
      plan = planDemoCatalog({ dataDir: message.dataDir, limit: message.limit });
      post({ type: "planned", total: plan.total });
    } else if (plan) {
      let batch = [];
      let size = message.firstBulk;
      for (const product of buildDemoCatalog(plan, message.baseUrl)) {
        batch.push(product);
        if (batch.length === size) {
          post({ type: "bulk", json: JSON.stringify(batch), count: batch.length });
          batch = [];
          size = message.bulk;
        }
      }
      if (batch.length > 0) post({ type: "bulk", json: JSON.stringify(batch), count: batch.length });
      post({ type: "done" });
    }
  } catch (error) {
    post({ type: "error", message: error instanceof Error ? error.message : String(error) });
  }
};
