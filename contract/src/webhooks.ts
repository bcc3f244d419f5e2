/* Webhook subscriptions and their deliveries as the admin API takes and answers them (/webhooks). */

/** What POST /webhooks takes. */
export interface NewWebhook {
  /** An https URL that resolves to public addresses. */
  url: string;
  /** "tags": features and generated content of a product. */
  topic: string;
}

/** A subscription as every answer but creation shows it: without its secret. */
export interface WebhookSubscription {
  id: string;
  url: string;
  topic: string;
  createdAt: string;
}

/** POST /webhooks (201): the one answer, with rotate-secret's, that shows the signing secret. */
export interface CreatedWebhook extends WebhookSubscription {
  secret: string;
}

/** GET /webhooks. */
export interface WebhookList {
  webhooks: WebhookSubscription[];
}

/** POST /webhooks/{id}/rotate-secret: the secret that signs from the next call on. */
export interface RotatedSecret {
  secret: string;
}

export type WebhookDeliveryStatus = "pending" | "succeeded" | "failed" | "dead";

export interface WebhookAttempt {
  at: string;
  /** The receiver's HTTP status; null when none came (refused, timed out). */
  status: number | null;
  durationMs: number | null;
  error: string | null;
}

export interface WebhookDelivery {
  deliveryId: string;
  productId: string;
  productVersion: number;
  stage: string;
  status: WebhookDeliveryStatus;
  attempts: WebhookAttempt[];
  /** Null while an attempt is in flight and once the delivery is done. */
  nextAttemptAt: string | null;
  createdAt: string;
}

/** GET /webhooks/{id}/deliveries, newest first; `nextCursor` asks for the next page. */
export interface WebhookDeliveries {
  deliveries: WebhookDelivery[];
  nextCursor: string | null;
}

/** POST /webhooks/{id}/deliveries/{deliveryId}/redeliver (202). */
export interface Redelivery {
  deliveryId: string;
  status: WebhookDeliveryStatus;
  nextAttemptAt: string | null;
}
