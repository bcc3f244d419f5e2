import { Elysia, t } from "elysia";
import { authPlugin, type AuthDeps } from "../../http/auth-plugin.ts";
import { readJsonText } from "../../http/json-body.ts";
import { MAX_REJECTED_LISTED, parseProductsBody, type ValidationReport } from "../catalog/validate-products.ts";
import type { Utf8Text } from "../../utf8-text.ts";
import { Product } from "../catalog/product-schema.ts";
import type { IndexingService } from "./indexing-service.ts";

const TaskAccepted = t.Object({ taskId: t.String() });
const Problem = { path: t.String(), message: t.String() };
const ProductsAccepted = t.Object({
  taskId: t.String(),
  accepted: t.Integer({ description: "products in the task" }),
  warnings: t.Integer({ description: "null optional fields and blank strings dropped from the accepted products" }),
  rejectedCount: t.Integer({ description: "invalid products left out of the task" }),
  rejected: t.Array(
    t.Object({
      index: t.Integer(),
      productId: t.Optional(t.String()),
      ...Problem,
      otherProblems: t.Optional(t.Array(t.Object(Problem))),
    }),
    { description: `the first ${MAX_REJECTED_LISTED} invalid products, in body order, with their first problems` },
  ),
});
const idParam = t.Object({ version: t.String(), id: t.String({ minLength: 1, maxLength: 256 }) });

/**
 * The accepted products as JSON exactly as sent, when validation dropped and refused nothing, kept as the task's
 * payload rather than serialised again (about a tenth of the server's time per product in a bulk): an array
 * body's bytes, stored without being encoded again, unless they were not valid UTF-8 (then decoded with U+FFFD
 * in place of the bad sequences, as validated); a single product made an array.
 */
function payloadAsSent(body: { value: unknown; text: string; bytes: Uint8Array }, report: ValidationReport): Utf8Text | undefined {
  if (report.warnings !== 0 || report.rejectedCount !== 0) return undefined;
  if (!Array.isArray(body.value)) return `[${body.text}]`;
  return body.text.includes("\uFFFD") ? body.text : body.bytes;
}

export function indexingRoutes(deps: AuthDeps & { indexing: IndexingService; maxBodyBytes: number }) {
  return new Elysia({ prefix: "/:version" })
    .use(authPlugin(deps))
    .post(
      "/products",
      async ({ request, caller, set }) => {
        const body = await readJsonText(request, { maxBytes: deps.maxBodyBytes });
        const { products, ...report } = parseProductsBody(body.value);
        const asSent = payloadAsSent(body, report);
        const taskId = await deps.indexing.upsert(caller.store.id, products, report, asSent);
        set.status = 202;
        return { taskId, accepted: products.length, ...report };
      },
      {
        auth: "admin",
        // Read by the handler, after the key is checked.
        parse: "none",
        response: { 202: ProductsAccepted },
        detail: {
          summary: "Add or update products",
          description:
            "One Product or an array of up to 10,000. Validated before the answer; applied asynchronously by a task. A product is replaced whole. " +
            "Null optional fields and blank strings (optional fields, array entries) are dropped and counted as warnings. " +
            "In an array, the valid products make the task and the invalid ones are reported (rejected); no valid product, or an invalid single object, is a 400.",
          tags: ["Indexing"],
          requestBody: {
            content: { "application/json": { schema: t.Union([Product, t.Array(Product)]) as never } },
          } as never,
        },
      },
    )
    .delete(
      "/products/:id",
      async ({ params, caller, set }) => {
        set.status = 202;
        return { taskId: await deps.indexing.remove(caller.store.id, params.id) };
      },
      {
        auth: "admin",
        params: idParam,
        response: { 202: TaskAccepted },
        detail: { summary: "Delete a product", tags: ["Indexing"] },
      },
    )
    .get("/products/:id", ({ params, caller }) => deps.indexing.product(caller.store.id, params.id), {
      auth: "admin",
      params: idParam,
      detail: { summary: "Read a product from the catalog, with its version", tags: ["Indexing"] },
    })
    .get("/tasks/:id", ({ params, caller }) => deps.indexing.task(caller.store.id, params.id), {
      auth: "admin",
      params: idParam,
      detail: {
        summary: "Status of an indexing task",
        description: "status is pending, then complete or error (with message). updatedAt changes as a bulk task progresses.",
        tags: ["Indexing"],
      },
    });
}
