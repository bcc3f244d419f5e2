import { trainSpace, type TrainingDocument } from "./semantic-space.ts";

/* The meaning thread: trains one store's space at a time (seconds of arithmetic the main thread must not spend). */

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ id: number; documents: TrainingDocument[] }>) => {
  const { id, documents } = event.data;
  try {
    const space = trainSpace(documents);
    self.postMessage({ id, space }, [
      space.wordVectors.buffer,
      space.productVectors.buffer,
      space.centroids.buffer,
      space.clusterStart.buffer,
    ] as ArrayBuffer[]);
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
