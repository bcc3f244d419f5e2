/*
 * The indexing thread: prepares slices of tasks (prepared-batch.ts) on the second core while the main thread
 * serves requests and commits the batch before; the engine documents as the engine's own preparer makes them. It reads what it needs (task payloads, ranking inputs) through
 * its own connection to the service's state (read-only on SQLite) and writes nothing.
 */
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { documentPreparer } from "../engine/document-preparers.ts";
import type { DocumentPreparer } from "../engine/types.ts";
import { connectState } from "../composition/service-state.ts";
import type { StateSource } from "../platform/state-source.ts";
import type { TasksRepository } from "../modules/indexing/storage/tasks-repository.ts";
import { RankingInputs } from "../modules/indexing/ranking-inputs.ts";
import type { Product } from "../modules/catalog/product-schema.ts";
import {
  encodePrepared,
  encodeStrings,
  transferables,
  type EncodedSlice,
  type PrepareRequest,
} from "../modules/indexing/prepared-batch.ts";
import type { ThreadReply, ThreadRequest } from "../modules/indexing/indexing-thread.ts";
import { acceptBulk } from "../modules/indexing/accepted-bulk.ts";
import { refusalOf } from "../thread-channel.ts";

declare const self: Worker;

/** Parsed payloads of the tasks being prepared: a bulk is parsed once, not once per slice. */
const PAYLOADS_KEPT = 4;
/**
 * Products of bodies validated here, by task id, kept for preparing their task without parsing its payload again
 * (over the demo bulk, ~20 µs per product of this thread): up to this many items, beyond which a body's products
 * are parsed from its payload when their task comes. Kept longer than ACCEPTED_KEPT_MS, they are dropped when the
 * next body comes (a body whose task was never stored, or that another replica applies).
 */
const ACCEPTED_ITEMS_KEPT = 20_000;
const ACCEPTED_KEPT_MS = 10 * 60_000;

let repos: { tasks: Pick<TasksRepository, "payload">; ranking: RankingInputs } | null = null;
let preparer: DocumentPreparer | null = null;

function readersOf(source: StateSource): NonNullable<typeof repos> {
  const state = connectState(source, { readonly: true, maxConnections: 2 });
  return { tasks: state.tasks, ranking: new RankingInputs(state.stores, state.purchaseCounts, state.enrichment) };
}
const payloads = new Map<number, unknown[]>();
const accepted = new Map<string, { items: unknown[]; at: number }>();
let acceptedItems = 0;

function keepAccepted(taskId: string, items: unknown[]): void {
  const now = Date.now();
  for (const [id, kept] of accepted) {
    if (now - kept.at < ACCEPTED_KEPT_MS) break;
    takeAccepted(id);
  }
  if (acceptedItems + items.length > ACCEPTED_ITEMS_KEPT) return;
  accepted.set(taskId, { items, at: now });
  acceptedItems += items.length;
}

function takeAccepted(taskId: string): unknown[] | undefined {
  const kept = accepted.get(taskId);
  if (!kept) return undefined;
  accepted.delete(taskId);
  acceptedItems -= kept.items.length;
  return kept.items;
}

async function itemsOf({ seq, taskId }: PrepareRequest): Promise<unknown[]> {
  let items = payloads.get(seq);
  if (!items) {
    items = takeAccepted(taskId) ?? (JSON.parse(await repos!.tasks.payload(seq)) as unknown[]);
    payloads.set(seq, items);
    if (payloads.size > PAYLOADS_KEPT) payloads.delete(payloads.keys().next().value!);
  }
  return items;
}

type Request = Extract<ThreadRequest, { type: "prepare" | "accept" }>;

/**
 * Requests not yet started. A body to validate (a request waits for it) and a slice needed now (a batch waiting
 * for it, such as another store's product behind a bulk) go before slices requested ahead, which only keep this
 * thread busy while the main thread is.
 */
const queue: Request[] = [];
const isAhead = (message: Request) => message.type === "prepare" && message.request.ahead;
let draining = false;

self.onmessage = (event: MessageEvent<ThreadRequest>) => {
  const message = event.data;
  if (message.type === "open") {
    repos = readersOf(message.source);
    preparer = documentPreparer(message.engine);
    return;
  }
  queue.push(message);
  if (!draining) void drain();
};

async function drain(): Promise<void> {
  draining = true;
  while (queue.length) {
    // Requests posted meanwhile are received first, so one needed now is seen before the next is chosen.
    await yieldToEventLoop();
    const now = queue.findIndex((message) => !isAhead(message));
    const next = queue.splice(Math.max(now, 0), 1)[0]!;
    if (next.type === "accept") accept(next);
    else await prepare(next);
  }
  draining = false;
}

function accept({ id, body, taskId }: Extract<Request, { type: "accept" }>): void {
  let reply: ThreadReply;
  try {
    const bulk = acceptBulk(body);
    keepAccepted(taskId, bulk.products);
    reply = { id, accepted: bulk.accepted };
  } catch (error) {
    const refused = refusalOf(error);
    reply = refused ? { id, refused } : { id, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply, "accepted" in reply ? [reply.accepted.payload.buffer as ArrayBuffer] : []);
}

async function prepare({ id, request }: Extract<Request, { type: "prepare" }>): Promise<void> {
  try {
    const items = await itemsOf(request);
    const slice = items.slice(request.start, request.end);
    if (request.end >= items.length) payloads.delete(request.seq);
    let prepared: EncodedSlice;
    if (request.kind === "delete") prepared = encodeStrings(slice as string[]);
    else {
      const products = slice as Product[];
      const context = await repos!.ranking.forProducts(
        request.storeId,
        products.map((p) => p.id),
      );
      prepared = encodePrepared(products, context, preparer!);
    }
    self.postMessage({ id, prepared } satisfies ThreadReply, transferables(prepared));
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies ThreadReply);
  }
}
