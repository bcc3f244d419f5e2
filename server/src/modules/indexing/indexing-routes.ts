import type { ProductsAccepted as WireProductsAccepted, TaskAccepted as WireTaskAccepted } from "@storefront-search/contract";
import { Elysia, t } from "elysia";
import { schemaFor } from "../../schema-check.ts";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { readJsonBytes } from "../../http/json-body.ts";
import { MAX_REJECTED_LISTED } from "../catalog/validate-products.ts";
import { Product } from "../catalog/product-schema.ts";
import type { IndexingService } from "./indexing-service.ts";

const TaskAccepted = schemaFor<WireTaskAccepted>()(t.Object({ taskId: t.String() }));
const Problem = { path: t.String(), message: t.String() };
const ProductsAccepted = schemaFor<WireProductsAccepted>()(
  t.Object({
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
  }),
);
const idParam = t.Object({ version: t.String(), id: t.String({ minLength: 1, maxLength: 256 }) });

export function indexingRoutes(deps: AuthDeps & { indexing: IndexingService; maxBodyBytes: number }) {
  return new Elysia({ prefix: "/:version" })
    .use(authPlugin(deps))
    .post(
      "/products",
      async ({ request, caller, set }) => {
        const accepted = await deps.indexing.accept(caller.store.id, await readJsonBytes(request, { maxBytes: deps.maxBodyBytes }));
        set.status = 202;
        return accepted;
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
