/*
 * The meaning thread (modules/meaning/meaning-thread.ts): gathers a store's evidence through its own read-only
 * connection to the service's state and trains its space (seconds of arithmetic over the whole catalog, which the
 * serving thread must spend neither time nor heap on). It ends when the service has nothing more for it to train.
 */
import { connectState } from "../composition/service-state.ts";
import { gatherEvidence } from "../modules/meaning/meaning-evidence.ts";
import type { MeaningThreadReply, MeaningThreadRequest } from "../modules/meaning/meaning-thread.ts";
import { trainSpace } from "../modules/meaning/semantic-space.ts";
import type { StateSource } from "../platform/state-source.ts";

declare const self: Worker;

let source: StateSource | null = null;

const reply = (message: MeaningThreadReply, transfer: ArrayBuffer[] = []) => self.postMessage(message, transfer);

self.onmessage = async (event: MessageEvent<MeaningThreadRequest>) => {
  const message = event.data;
  if (message.type === "open") {
    source = message.source;
    return;
  }
  const { id, storeId, now } = message;
  const state = connectState(source!, { readonly: true, maxConnections: 1 });
  try {
    const evidence = await gatherEvidence(
      { catalog: state.catalog, events: state.events, searchLog: state.searchLog, now: () => now },
      storeId,
    );
    const documents = evidence.documents;
    if (evidence.productIds.length === 0) return reply({ id, space: null, documents });
    // Each step's arrays collected before the next allocates (this thread's heap only: the serving thread's is its
    // own): the training's peak is then its largest step, not the sum of its garbage.
    Bun.gc(true);
    const space = trainSpace(evidence, () => Bun.gc(true));
    const buffers = [space.wordVectors.buffer, space.productVectors.buffer, space.centroids.buffer, space.clusterStart.buffer];
    reply({ id, space, documents }, buffers as ArrayBuffer[]);
  } catch (error) {
    reply({ id, error: error instanceof Error ? error.message : String(error) });
  } finally {
    await state.close();
  }
};
