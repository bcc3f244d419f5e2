import { Elysia, t } from "elysia";
import { NotFoundError } from "../../errors.ts";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { boundedInteger, documentedParam } from "../../http/query-params.ts";
import type { WebhooksService } from "./webhooks-service.ts";

/* Webhook subscriptions and their deliveries: admin key. */

const SUBSCRIPTION_ID = /^wh_[0-9a-f]{24}$/;
const DELIVERY_ID = /^whd_[0-9a-f]{24}$/;

/** An id that cannot be one of ours is unknown, like any other unknown id. */
function known(id: string, pattern: RegExp, what: string): string {
  if (!pattern.test(id)) throw new NotFoundError(`No ${what} ${id.slice(0, 64)} in this store`);
  return id;
}

export function webhooksRoutes(deps: AuthDeps & { webhooks: WebhooksService }) {
  const idParams = t.Object({ version: t.String(), id: t.String() });
  const tags = ["Webhooks"];
  return new Elysia({ prefix: "/:version" })
    .use(authPlugin(deps))
    .post(
      "/webhooks",
      async ({ request, caller, set }) => {
        const created = await deps.webhooks.create(caller.store.id, await readJsonBody(request, { maxBytes: 16 * 1024 }));
        set.status = 201;
        return created;
      },
      {
        auth: "admin",
        parse: "none",
        detail: {
          summary: "Subscribe an https endpoint to a webhook topic",
          description:
            'Body: { "url": "https://…", "topic": "tags" }. Answers 201 { id, url, topic, secret, createdAt }; the secret (which signs every call) is shown in this answer and in rotate-secret\'s only.',
          tags,
        },
      },
    )
    .get("/webhooks", ({ caller }) => deps.webhooks.list(caller.store.id), {
      auth: "admin",
      detail: { summary: "The store's webhook subscriptions (without their secrets)", tags },
    })
    .get(
      "/webhooks/:id",
      ({ params, caller }) => deps.webhooks.get(caller.store.id, known(params.id, SUBSCRIPTION_ID, "webhook subscription")),
      {
        auth: "admin",
        params: idParams,
        detail: { summary: "A webhook subscription (without its secret)", tags },
      },
    )
    .delete(
      "/webhooks/:id",
      async ({ params, caller, set }) => {
        await deps.webhooks.delete(caller.store.id, known(params.id, SUBSCRIPTION_ID, "webhook subscription"));
        set.status = 204;
      },
      { auth: "admin", params: idParams, detail: { summary: "Delete a webhook subscription; its waiting deliveries are given up", tags } },
    )
    .post(
      "/webhooks/:id/rotate-secret",
      ({ params, caller }) => deps.webhooks.rotateSecret(caller.store.id, known(params.id, SUBSCRIPTION_ID, "webhook subscription")),
      {
        auth: "admin",
        parse: "none",
        params: idParams,
        detail: { summary: "A new signing secret, used from the next call on: { secret }", tags },
      },
    )
    .get(
      "/webhooks/:id/deliveries",
      ({ params, query, caller }) => {
        const q = query as Record<string, string | undefined>;
        return deps.webhooks.deliveries(caller.store.id, known(params.id, SUBSCRIPTION_ID, "webhook subscription"), {
          status: q.status,
          productId: q.productId,
          cursor: q.cursor,
          limit: boundedInteger(q.limit ? Number(q.limit) : undefined, "limit", { min: 1, max: 1000, fallback: 100 }),
        });
      },
      {
        auth: "admin",
        params: idParams,
        query: t.Object(
          {
            status: documentedParam("pending, succeeded, failed or dead"),
            productId: documentedParam("Only deliveries about this product"),
            limit: documentedParam("1 to 1000, default 100"),
            cursor: documentedParam("nextCursor of the previous page"),
          },
          { additionalProperties: true },
        ),
        detail: {
          summary: "A subscription's deliveries, newest first, with every attempt",
          description:
            "{ deliveries: [{ deliveryId, productId, productVersion, stage, status, attempts: [{ at, status, durationMs, error }], nextAttemptAt, createdAt }], nextCursor }",
          tags,
        },
      },
    )
    .post(
      "/webhooks/:id/deliveries/:deliveryId/redeliver",
      async ({ params, caller, set }) => {
        const result = await deps.webhooks.redeliver(
          caller.store.id,
          known(params.id, SUBSCRIPTION_ID, "webhook subscription"),
          known(params.deliveryId, DELIVERY_ID, "delivery"),
        );
        set.status = 202;
        return result;
      },
      {
        auth: "admin",
        parse: "none",
        params: t.Object({ version: t.String(), id: t.String(), deliveryId: t.String() }),
        detail: { summary: "Send a delivery again now, from the start of the retry schedule (202)", tags },
      },
    );
}
