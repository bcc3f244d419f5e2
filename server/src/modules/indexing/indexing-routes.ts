import { Elysia, t } from "elysia";
import { authPlugin, type AuthDeps } from "../../http/auth-plugin.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { parseProductsBody } from "../catalog/validate-products.ts";
import { Product } from "../catalog/product-schema.ts";
import type { IndexingService } from "./indexing-service.ts";

const TaskAccepted = t.Object({ taskId: t.String() });
const idParam = t.Object({ version: t.String(), id: t.String({ minLength: 1, maxLength: 256 }) });

export function indexingRoutes(deps: AuthDeps & { indexing: IndexingService; maxBodyBytes: number }) {
  return new Elysia({ prefix: "/:version" })
    .use(authPlugin(deps))
    .post(
      "/products",
      ({ body, caller, set }) => {
        const taskId = deps.indexing.upsert(caller.store.id, parseProductsBody(body));
        set.status = 202;
        return { taskId };
      },
      {
        auth: "admin",
        parse: ({ request }) => readJsonBody(request, { maxBytes: deps.maxBodyBytes }),
        response: { 202: TaskAccepted },
        detail: {
          summary: "Add or update products",
          description:
            "One Product or an array of up to 10,000. Validated before the answer; applied asynchronously by a task. A product is replaced whole.",
          tags: ["Indexing"],
          requestBody: {
            content: { "application/json": { schema: t.Union([Product, t.Array(Product)]) as never } },
          } as never,
        },
      },
    )
    .delete(
      "/products/:id",
      ({ params, caller, set }) => {
        set.status = 202;
        return { taskId: deps.indexing.remove(caller.store.id, params.id) };
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
