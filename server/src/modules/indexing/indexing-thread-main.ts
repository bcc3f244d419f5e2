/*
 * The indexing thread: prepares slices of tasks (prepared-batch.ts) on the second core while the main thread
 * serves requests and commits the batch before. It reads what it needs (task payloads, ranking inputs) through
 * its own read-only connection to the service database and writes nothing.
 */
import { Database } from "bun:sqlite";
import { EnrichmentRepo } from "../../db/enrichment-repo.ts";
import { SignalsRepo } from "../../db/signals-repo.ts";
import { SqliteStoresRepo } from "../../db/stores-repo.ts";
import { TasksRepo } from "../../db/tasks-repo.ts";
import { RankingInputs } from "../catalog/ranking-inputs.ts";
import type { Product } from "../catalog/product-schema.ts";
import { encodePrepared, type EncodedSlice } from "./prepared-batch.ts";
import type { ThreadReply, ThreadRequest } from "./indexing-thread.ts";

declare const self: Worker;

/** Parsed payloads of the tasks being prepared: a bulk is parsed once, not once per slice. */
const PAYLOADS_KEPT = 4;

let repos: { tasks: TasksRepo; ranking: RankingInputs } | null = null;
const payloads = new Map<number, unknown[]>();

async function itemsOf(seq: number): Promise<unknown[]> {
  let items = payloads.get(seq);
  if (!items) {
    items = JSON.parse(await repos!.tasks.payload(seq)) as unknown[];
    payloads.set(seq, items);
    if (payloads.size > PAYLOADS_KEPT) payloads.delete(payloads.keys().next().value!);
  }
  return items;
}

self.onmessage = async (event: MessageEvent<ThreadRequest>) => {
  const message = event.data;
  if (message.type === "open") {
    const db = new Database(message.dbPath, { readonly: true });
    repos = { tasks: new TasksRepo(db), ranking: new RankingInputs(new SqliteStoresRepo(db), new SignalsRepo(db), new EnrichmentRepo(db)) };
    return;
  }
  const { id, request } = message;
  try {
    const items = await itemsOf(request.seq);
    const slice = items.slice(request.start, request.end);
    if (request.end >= items.length) payloads.delete(request.seq);
    let prepared: EncodedSlice;
    if (request.kind === "delete") prepared = { strings: slice as string[], sequences: new Uint32Array(0) };
    else {
      const products = slice as Product[];
      const context = await repos!.ranking.forProducts(request.storeId, products.map((p) => p.id));
      prepared = encodePrepared(products, request.shaping, context);
    }
    self.postMessage({ id, prepared } satisfies ThreadReply);
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies ThreadReply);
  }
};
