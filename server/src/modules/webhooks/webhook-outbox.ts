import { randomBytes } from "node:crypto";

/*
 * The producers' side of webhooks: a stage that found something about a product queues its calls in the
 * transaction that commits what it found (EnrichmentRepository.finishStage). The dispatcher
 * (webhook-dispatcher.ts) sends them; it also polls for due rows every 250 ms, so rows written by another
 * connection or process are picked up without a wake().
 */

/** The one topic so far: features and generated content of a product (the spec's tag generation). */
export const TAGS_TOPIC = "tags";
export const WEBHOOK_TOPICS: readonly string[] = [TAGS_TOPIC];

export const newDeliveryId = () => `whd_${randomBytes(12).toString("hex")}`;
