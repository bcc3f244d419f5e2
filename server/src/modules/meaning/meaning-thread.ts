import type { StateSource } from "../../platform/state-source.ts";
import type { TrainedSpace } from "./semantic-space.ts";

/*
 * The messages between the meaning service and its thread (threads/meaning-thread-main.ts), which reads a store's
 * evidence through a connection of its own and trains its space there: the main thread neither parses the whole
 * catalog for it nor holds its documents.
 */

export type MeaningThreadRequest =
  | { type: "open"; source: StateSource }
  /** `now`: the clock the evidence's time window is read against (the service's). */
  | { type: "train"; id: number; storeId: string; now: number };

/** A store's trained space and how many documents it was trained on; `space` null when the store has no product. */
export type MeaningThreadReply = { id: number; space: TrainedSpace | null; documents: number } | { id: number; error: string };
