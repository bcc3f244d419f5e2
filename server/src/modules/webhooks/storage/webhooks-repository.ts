/*
 * Webhook subscriptions and their outbox of deliveries (modules/webhooks/): the interface both durable stores
 * implement (webhooks-repo.ts on SQLite, postgres/webhooks-repo.ts), held to the same behaviour by
 * server/test/repository-conformance.test.ts, with the row shapes and their mapping, which are the same on both.
 */

export interface SubscriptionRow {
  id: string;
  storeId: string;
  url: string;
  topic: string;
  /** Signs the calls; never part of a read answer. */
  secret: string;
  createdAt: number;
}

export type DeliveryStatus = "pending" | "succeeded" | "failed" | "dead";
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ["pending", "succeeded", "failed", "dead"];

export interface AttemptRecord {
  /** When the attempt started (ms). */
  at: number;
  /** The receiver's HTTP status, or null when there was none (time-out, connection failure, interruption). */
  status: number | null;
  /** Null when unknown (an attempt a stopped process left in flight). */
  durationMs: number | null;
  error: string | null;
}

export interface DeliveryRow {
  seq: number;
  id: string;
  subscriptionId: string;
  storeId: string;
  productId: string;
  productVersion: number;
  stage: string;
  body: string;
  status: DeliveryStatus;
  attempts: AttemptRecord[];
  /** Attempts since the delivery was queued or redelivered: its position in the retry schedule. */
  roundAttempts: number;
  nextAttemptAt: number | null;
  /** The number of the attempt in flight, or null. */
  inFlight: number | null;
  inFlightAt: number | null;
  createdAt: number;
}

export interface RawSubscription {
  id: string;
  store_id: string;
  url: string;
  topic: string;
  secret: string;
  created_at: number;
}

export interface RawDelivery {
  seq: number;
  id: string;
  subscription_id: string;
  store_id: string;
  product_id: string;
  product_version: number;
  stage: string;
  body: string;
  status: DeliveryStatus;
  attempts: string;
  round_attempts: number;
  next_attempt_at: number | null;
  in_flight: number | null;
  in_flight_at: number | null;
  created_at: number;
}

export const SUBSCRIPTION_COLUMNS = "id, store_id, url, topic, secret, created_at";
export const DELIVERY_COLUMNS =
  "seq, id, subscription_id, store_id, product_id, product_version, stage, body, status, attempts, round_attempts, next_attempt_at, in_flight, in_flight_at, created_at";

/** A delivery keeps the history of its last attempts only (redeliveries could grow it without end). */
export const MAX_KEPT_ATTEMPTS = 100;

export const toSubscription = (r: RawSubscription): SubscriptionRow => ({
  id: r.id,
  storeId: r.store_id,
  url: r.url,
  topic: r.topic,
  secret: r.secret,
  createdAt: r.created_at,
});

export const toDelivery = (r: RawDelivery): DeliveryRow => ({
  seq: r.seq,
  id: r.id,
  subscriptionId: r.subscription_id,
  storeId: r.store_id,
  productId: r.product_id,
  productVersion: r.product_version,
  stage: r.stage,
  body: r.body,
  status: r.status,
  attempts: JSON.parse(r.attempts) as AttemptRecord[],
  roundAttempts: r.round_attempts,
  nextAttemptAt: r.next_attempt_at,
  inFlight: r.in_flight,
  inFlightAt: r.in_flight_at,
  createdAt: r.created_at,
});

export interface DeliveryFilter {
  status?: DeliveryStatus;
  productId?: string;
  /** Only deliveries older than this seq (the previous page's cursor). */
  beforeSeq?: number;
  limit: number;
}

/** How a finished attempt changes its delivery. */
export interface AttemptOutcome {
  status: DeliveryStatus;
  nextAttemptAt: number | null;
  /** Set when the delivery is done (succeeded or dead). */
  finishedAt: number | null;
}

/** What the producers queue: one delivery per live subscription of the store to the topic. */
export interface NewDeliveries {
  storeId: string;
  productId: string;
  productVersion: number;
  stage: string;
  /** The call's JSON body, sent byte for byte as given (and signed as it is). */
  body: string;
  /** When the first attempt is due (ms). */
  now: number;
}

/**
 * A finished attempt's effect on its delivery's stored history: the attempts kept (JSON, the last
 * MAX_KEPT_ATTEMPTS) and the outcome, which is dead instead of a retry when the subscription was deleted during
 * the call.
 */
export function settleAttempt(
  attemptsJson: string,
  subscriptionDeleted: boolean,
  record: AttemptRecord,
  outcome: AttemptOutcome,
): { attempts: string; outcome: AttemptOutcome } {
  const attempts = [...(JSON.parse(attemptsJson) as AttemptRecord[]), record].slice(-MAX_KEPT_ATTEMPTS);
  const settled: AttemptOutcome =
    subscriptionDeleted && outcome.status === "failed"
      ? { status: "dead", nextAttemptAt: null, finishedAt: record.at + (record.durationMs ?? 0) }
      : outcome;
  return { attempts: JSON.stringify(attempts), outcome: settled };
}

export interface WebhooksRepository {
  /** Creates the subscription unless the store has `max` live ones already; false when it has (checked and written at once). */
  createSubscriptionWithin(s: SubscriptionRow, max: number): Promise<boolean>;
  subscriptions(storeId: string): Promise<SubscriptionRow[]>;
  subscription(storeId: string, id: string): Promise<SubscriptionRow | null>;
  /** Every live subscription of every store (the dispatcher's round). */
  activeSubscriptions(): Promise<SubscriptionRow[]>;
  setSecret(storeId: string, id: string, secret: string): Promise<boolean>;
  /** Marks the subscription deleted and gives up its waiting deliveries (one in flight finishes as it goes). */
  deleteSubscription(storeId: string, id: string, now: number): Promise<boolean>;
  /** Queues one delivery per live subscription of the store to the tags topic, in a transaction of its own; returns how many. */
  enqueue(d: NewDeliveries): Promise<number>;
  deliveries(subscriptionId: string, filter: DeliveryFilter): Promise<DeliveryRow[]>;
  delivery(subscriptionId: string, id: string): Promise<DeliveryRow | null>;
  /**
   * Claims up to `limit` of a subscription's deliveries due at `now`, the longest waiting first: each is marked in
   * flight with its attempt's number (round attempts + 1) and `now`, committed before it is returned, so no other
   * caller (another replica) gets it. Returns them as claimed.
   */
  claimDue(subscriptionId: string, now: number, limit: number): Promise<DeliveryRow[]>;
  /** When a subscription's next delivery is due, or null when none waits. */
  earliestDue(subscriptionId: string): Promise<number | null>;
  /** Deliveries in flight since before `startedBefore` (left by a process that stopped or died, once its lease is over). */
  inFlight(startedBefore: number): Promise<DeliveryRow[]>;
  /**
   * Records attempt `attempt` of a delivery and its consequence, if that attempt is still the one in flight.
   * False when it was not (recorded already).
   */
  finishAttempt(id: string, attempt: number, record: AttemptRecord, outcome: AttemptOutcome): Promise<boolean>;
  /**
   * Queues a delivery again from the start of the retry schedule, due at `now`. "in_flight" when an attempt is
   * being made right now; null when there is no such delivery.
   */
  redeliver(subscriptionId: string, id: string, now: number): Promise<DeliveryRow | "in_flight" | null>;
  /** Deletes up to `limit` deliveries finished before `before`; returns how many. */
  pruneFinished(before: number, limit: number): Promise<number>;
}
