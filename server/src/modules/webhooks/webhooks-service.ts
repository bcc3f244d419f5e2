import { randomBytes } from "node:crypto";
import type {
  CreatedWebhook,
  Redelivery,
  RotatedSecret,
  WebhookDeliveries,
  WebhookDelivery,
  WebhookList,
  WebhookSubscription,
} from "@storefront-search/contract";
import {
  DELIVERY_STATUSES,
  type DeliveryRow,
  type DeliveryStatus,
  type SubscriptionRow,
  type WebhooksRepository,
} from "./storage/webhooks-repository.ts";
import { ConflictError, LimitReachedError, NotFoundError, ValidationError } from "../../errors.ts";
import { RefusedAddressError, resolvePublic, UnresolvedHostError } from "../../http/outbound-address.ts";
import type { Logger } from "../../log.ts";
import { WEBHOOK_TOPICS } from "./webhook-outbox.ts";

/* Subscriptions (create, list, read, delete, rotate the secret) and their deliveries (list, redeliver). */

export const MAX_SUBSCRIPTIONS_PER_STORE = 20;
export const MAX_URL_LENGTH = 2048;

const newSubscriptionId = () => `wh_${randomBytes(12).toString("hex")}`;
const newSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;

const iso = (ms: number) => new Date(ms).toISOString();

/** Never includes the secret: only create and rotate answers show it. */
const view = (s: SubscriptionRow): WebhookSubscription => ({ id: s.id, url: s.url, topic: s.topic, createdAt: iso(s.createdAt) });

const deliveryView = (d: DeliveryRow): WebhookDelivery => ({
  deliveryId: d.id,
  productId: d.productId,
  productVersion: d.productVersion,
  stage: d.stage,
  status: d.status,
  attempts: d.attempts.map((a) => ({ at: iso(a.at), status: a.status, durationMs: a.durationMs, error: a.error })),
  nextAttemptAt: d.nextAttemptAt === null ? null : iso(d.nextAttemptAt),
  createdAt: iso(d.createdAt),
});

const invalid = (path: string, problem: string) => new ValidationError(`${path} ${problem}`, [{ path, problem }]);

export interface DeliveryQuery {
  status?: string;
  productId?: string;
  limit: number;
  cursor?: string;
}

export class WebhooksService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly o: { now: () => number; allowPrivateNetworks: boolean; wake: () => void; log: Logger },
  ) {}

  /** Checks the URL (https, resolves to public addresses unless private networks are allowed); its normal form. */
  private async checkedUrl(raw: unknown): Promise<string> {
    if (typeof raw !== "string" || raw.trim() === "") throw invalid("body.url", "is required: the https URL to call");
    if (raw.length > MAX_URL_LENGTH) throw invalid("body.url", `must be at most ${MAX_URL_LENGTH} characters`);
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw invalid("body.url", "is not a valid URL");
    }
    if (url.protocol !== "https:")
      throw invalid("body.url", `must use https (got ${url.protocol.replace(/:$/, "")}); http endpoints are not accepted`);
    if (!url.hostname) throw invalid("body.url", "has no host");
    if (url.username || url.password) throw invalid("body.url", "must not carry a user name or password");
    if (url.hash) throw invalid("body.url", "must not have a #fragment (it is never sent)");
    if (url.href.length > MAX_URL_LENGTH) throw invalid("body.url", `must be at most ${MAX_URL_LENGTH} characters`);
    try {
      await resolvePublic(url.hostname, this.o.allowPrivateNetworks);
    } catch (error) {
      if (error instanceof RefusedAddressError) {
        throw invalid(
          "body.url",
          `resolves to ${error.address}, a loopback, private or otherwise non-public address; receivers must be reachable on the internet`,
        );
      }
      if (error instanceof UnresolvedHostError) throw invalid("body.url", `has a host that does not resolve (${error.host})`);
      throw error;
    }
    return url.href;
  }

  async create(storeId: string, body: unknown): Promise<CreatedWebhook> {
    if (!body || typeof body !== "object" || Array.isArray(body))
      throw invalid("body", 'must be an object like { "url": "https://…", "topic": "tags" }');
    const fields = body as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      if (key !== "url" && key !== "topic") throw invalid(`body.${key}`, "is not a field of a subscription (url, topic)");
    }
    if (typeof fields.topic !== "string" || !WEBHOOK_TOPICS.includes(fields.topic)) {
      throw invalid("body.topic", `must be one of ${WEBHOOK_TOPICS.join(", ")}`);
    }
    const url = await this.checkedUrl(fields.url);
    const row: SubscriptionRow = {
      id: newSubscriptionId(),
      storeId,
      url,
      topic: fields.topic,
      secret: newSecret(),
      createdAt: this.o.now(),
    };
    if (!(await this.repo.createSubscriptionWithin(row, MAX_SUBSCRIPTIONS_PER_STORE))) {
      throw new LimitReachedError(`A store has at most ${MAX_SUBSCRIPTIONS_PER_STORE} webhook subscriptions; delete one first`);
    }
    this.o.log.info("webhook subscription created", { storeId, webhookId: row.id, topic: row.topic, host: new URL(url).host });
    return { ...view(row), secret: row.secret };
  }

  async list(storeId: string): Promise<WebhookList> {
    return { webhooks: (await this.repo.subscriptions(storeId)).map(view) };
  }

  private async subscription(storeId: string, id: string): Promise<SubscriptionRow> {
    const found = await this.repo.subscription(storeId, id);
    if (!found) throw new NotFoundError(`No webhook subscription ${id} in this store`);
    return found;
  }

  async get(storeId: string, id: string): Promise<WebhookSubscription> {
    return view(await this.subscription(storeId, id));
  }

  async delete(storeId: string, id: string): Promise<void> {
    if (!(await this.repo.deleteSubscription(storeId, id, this.o.now())))
      throw new NotFoundError(`No webhook subscription ${id} in this store`);
    this.o.log.info("webhook subscription deleted", { storeId, webhookId: id });
  }

  /** A new secret, used from the next call on; the old one stops signing at once. */
  async rotateSecret(storeId: string, id: string): Promise<RotatedSecret> {
    const secret = newSecret();
    if (!(await this.repo.setSecret(storeId, id, secret))) throw new NotFoundError(`No webhook subscription ${id} in this store`);
    this.o.log.info("webhook secret rotated", { storeId, webhookId: id });
    return { secret };
  }

  async deliveries(storeId: string, id: string, q: DeliveryQuery): Promise<WebhookDeliveries> {
    const sub = await this.subscription(storeId, id);
    if (q.status !== undefined && q.status !== "" && !(DELIVERY_STATUSES as readonly string[]).includes(q.status)) {
      throw invalid("query.status", `must be one of ${DELIVERY_STATUSES.join(", ")}`);
    }
    if (q.productId !== undefined && q.productId.length > 256) throw invalid("query.productId", "must be at most 256 characters");
    let beforeSeq: number | undefined;
    if (q.cursor !== undefined && q.cursor !== "") {
      if (!/^\d{1,15}$/.test(q.cursor)) throw invalid("query.cursor", "is not a cursor this listing gave (nextCursor)");
      beforeSeq = Number(q.cursor);
    }
    const rows = await this.repo.deliveries(sub.id, {
      status: q.status ? (q.status as DeliveryStatus) : undefined,
      productId: q.productId || undefined,
      beforeSeq,
      limit: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    return { deliveries: page.map(deliveryView), nextCursor: rows.length > q.limit ? String(page.at(-1)!.seq) : null };
  }

  /** Sends a delivery again now, from the start of the retry schedule. */
  async redeliver(storeId: string, id: string, deliveryId: string): Promise<Redelivery> {
    const sub = await this.subscription(storeId, id);
    const result = await this.repo.redeliver(sub.id, deliveryId, this.o.now());
    if (result === null) throw new NotFoundError(`No delivery ${deliveryId} for webhook ${id}`);
    if (result === "in_flight")
      throw new ConflictError(`Delivery ${deliveryId} is being sent right now; ask again once its attempt has ended`);
    this.o.wake();
    this.o.log.info("webhook redelivery queued", { storeId, webhookId: id, deliveryId });
    return { deliveryId, status: result.status, nextAttemptAt: result.nextAttemptAt === null ? null : iso(result.nextAttemptAt) };
  }
}
