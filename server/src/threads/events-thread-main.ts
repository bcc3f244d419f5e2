/*
 * The events thread (events-thread.ts): takes in shopper events and counts them, through its own connection to the
 * service's state, so neither costs the thread that serves searches.
 */
import type { NewEvent } from "../modules/events/storage/events-repository.ts";
import { connectState } from "../composition/service-state.ts";
import { GroupCommit } from "../platform/group-commit.ts";
import { parseJsonText } from "../json-text.ts";
import { createLogger } from "../log.ts";
import { refusalOf } from "../thread-channel.ts";
import { textOf } from "../utf8-text.ts";
import { AnalyticsWorker } from "../modules/analytics/analytics-worker.ts";
import { ReportCounter } from "../modules/analytics/report-counter.ts";
import { ExperimentCounter } from "../modules/experiments/experiment-counter.ts";
import { BehaviourLearner } from "../modules/ranking/behaviour-learner.ts";
import { ProductFacts } from "../modules/ranking/product-facts.ts";
import { RecommendationLearner } from "../modules/recommendations/recommendation-learner.ts";
import { checkEvents } from "../modules/tracking/event-check.ts";
import { effectsOf } from "../modules/tracking/event-effects.ts";
import type { EventsThreadNotice, EventsThreadReply, EventsThreadRequest } from "../modules/tracking/events-thread.ts";

declare const self: Worker;

/**
 * How long a write here waits for a lock held elsewhere (an indexing batch on the serving thread, a command-line
 * tool): longer than the serving thread's wait, since waiting here holds up no search, but short enough that a
 * request answers 503 soon when another process keeps the database.
 */
const BUSY_TIMEOUT_MS = 2_000;
/** Events per ingest transaction: each holds the write lock a few milliseconds, which the serving thread may wait out. */
const MAX_EVENTS_PER_COMMIT = 250;

const notify = (notice: EventsThreadNotice) => self.postMessage(notice);
const reply = (message: EventsThreadReply) => self.postMessage(message);

function failure(id: number, error: unknown): EventsThreadReply {
  const e = error instanceof Error ? error : new Error(String(error));
  const code = (e as { code?: unknown }).code;
  return { id, failed: { name: e.name, message: e.message, ...(typeof code === "string" ? { code } : {}) } };
}

let parts: {
  storage: ReturnType<typeof connectState>;
  facts: ProductFacts;
  analytics: AnalyticsWorker;
  intake: GroupCommit<NewEvent>;
} | null = null;
/** Checked bodies' events, by the id of their check, until the main thread says commit or drop. */
const checked = new Map<number, NewEvent[]>();

function open(message: Extract<EventsThreadRequest, { type: "open" }>): NonNullable<typeof parts> {
  const storage = connectState(message.source, { synchronous: message.synchronous, busyTimeoutMs: BUSY_TIMEOUT_MS, maxConnections: 4 });
  const facts = new ProductFacts(storage.catalog);
  const evidence = {
    written: (storeId: string, keys: Iterable<{ query: string; productId: string }>, shoppers: readonly string[]) =>
      notify({ type: "evidence", storeId, keys: [...keys], shoppers: [...shoppers] }),
    clear: () => notify({ type: "evidencePruned" }),
  };
  // The report counter first: the behaviour learner reads the clicks it attributed to searches.
  const analytics = new AnalyticsWorker(
    storage.analytics,
    storage.events,
    [
      new ReportCounter(),
      new BehaviourLearner(storage.analytics, facts, Date.now, evidence),
      new ExperimentCounter(storage.experiments),
      new RecommendationLearner(),
    ],
    createLogger(message.logLevel),
  );
  const intake = new GroupCommit<NewEvent>(
    async (batch) => {
      const changed = await storage.ingest.commit(batch, effectsOf(batch));
      for (const [storeId, productIds] of changed) notify({ type: "purchases", storeId, productIds });
      analytics.wake();
    },
    0,
    MAX_EVENTS_PER_COMMIT,
  );
  // Events acknowledged before a stop or a crash but not counted yet.
  analytics.wake();
  return { storage, facts, analytics, intake };
}

self.onmessage = (event: MessageEvent<EventsThreadRequest>) => {
  const message = event.data;
  if (message.type === "open") {
    parts = open(message);
    return;
  }
  const { storage, facts, analytics, intake } = parts!;
  switch (message.type) {
    case "check":
      try {
        const body = parseJsonText(textOf(message.body));
        const events = checkEvents(message.storeId, message.apiVersion, body, message.receivedAt);
        checked.set(message.id, events);
        return reply({ id: message.id, checked: events.length });
      } catch (error) {
        const refused = refusalOf(error);
        return reply(refused ? { id: message.id, refused } : failure(message.id, error));
      }
    case "drop":
      checked.delete(message.checked);
      return;
    case "commit": {
      const events = checked.get(message.checked) ?? [];
      checked.delete(message.checked);
      intake.add(events).then(
        () => reply({ id: message.id, done: events.length }),
        (error) => reply(failure(message.id, error)),
      );
      return;
    }
    case "catchUp":
      analytics.catchUp().then(
        (counted) => reply({ id: message.id, done: counted }),
        (error) => reply(failure(message.id, error)),
      );
      return;
    case "catalogChanged":
      facts.changed(message.storeId);
      return;
    case "stop":
      void (async () => {
        await analytics.stop();
        await intake.flush();
        await storage.close();
        reply({ id: message.id, done: 0 });
      })().catch((error) => reply(failure(message.id, error)));
  }
};
