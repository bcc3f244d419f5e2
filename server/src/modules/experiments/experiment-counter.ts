import type { AnalyticsBatch } from "../analytics/analytics-batch.ts";
import type { AnalyticsEvent, EventConsumer } from "../analytics/analytics-worker.ts";
import { assignVariant, shopperOf } from "./assignment.ts";
import type { ExperimentBody } from "./experiment-schema.ts";
import { eventCounts } from "./experiment-tally.ts";
import type { ExperimentsRepository } from "./storage/experiments-repository.ts";

/** An experiment as the counter needs it: its window (ms) and what decides a shopper's variant and a search's scope. */
interface Counted {
  id: string;
  body: ExperimentBody;
  shares: number[];
  from: number;
  /** Infinity while it runs. */
  to: number;
}

/**
 * The variant the event counts for: the one it names (the answer the shopper saw said so) when it names one of this
 * experiment's, else the shopper's assignment. A shopper's row keeps the variant of its first event.
 */
function variantOf(event: AnalyticsEvent, e: Counted, shopper: string): number {
  const named = event.data.experimentId === e.id ? e.body.variants.findIndex((v) => v.name === event.data.variant) : -1;
  return named >= 0 ? named : assignVariant(e.id, shopper, e.shares);
}

/** A click on an interleaved list of this experiment credits the ranking that placed the product. */
function credits(event: AnalyticsEvent, experimentId: string): { creditsA: number; creditsB: number } {
  const click = event.type === "ProductClick" && event.data.experimentId === experimentId;
  return { creditsA: click && event.data.interleavedFrom === "A" ? 1 : 0, creditsB: click && event.data.interleavedFrom === "B" ? 1 : 0 };
}

/**
 * The analytics worker's consumer that keeps experiments' per-shopper counters: each event received while an
 * experiment ran adds to its shopper's row in that experiment, in the transaction of the batch it came in, so the
 * counters count every event once. Runs after the report counter, which counts orders first (firstTimeOrder).
 */
export class ExperimentCounter implements EventConsumer {
  private experiments = new Map<string, Counted[]>();

  constructor(private readonly repo: ExperimentsRepository) {}

  async prepare(batch: readonly AnalyticsEvent[]): Promise<void> {
    this.experiments = new Map();
    for (const storeId of new Set(batch.map((e) => e.storeId))) {
      const started = (await this.repo.all(storeId)).filter((e) => e.startedAt !== null);
      const counted = started.map((e): Counted => {
        const body = JSON.parse(e.body) as ExperimentBody;
        return { id: e.id, body, shares: body.variants.map((v) => v.share), from: e.startedAt!, to: e.endedAt ?? Number.POSITIVE_INFINITY };
      });
      if (counted.length) this.experiments.set(storeId, counted);
    }
  }

  apply(event: AnalyticsEvent, state: AnalyticsBatch): void {
    const running = this.experiments.get(event.storeId);
    const shopper = shopperOf(event);
    if (!running || !shopper) return;
    const orderId = event.data.orderId;
    const isOrder = (event.type === "OrderComplete" || event.type === "Purchase") && typeof orderId === "string";
    // Asked once per event, whatever the number of experiments: the answer is the event's, not the experiment's.
    const firstOfOrder = isOrder && state.firstTimeOrder(event.storeId, orderId, event.seq);
    for (const e of running) {
      if (event.receivedAt < e.from || event.receivedAt >= e.to) continue;
      state.countExperimentShopper({
        storeId: event.storeId,
        experimentId: e.id,
        shopper,
        variant: variantOf(event, e, shopper),
        ...eventCounts(event, e.body.scope, firstOfOrder),
        ...credits(event, e.id),
      });
    }
  }

  /** Keeps no working state between batches: the counters are rows, deleted with their experiment. */
  prune(): void {}
}
