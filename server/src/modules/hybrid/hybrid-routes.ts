import { Elysia } from "elysia";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import type { HybridSearch } from "./hybrid-search.ts";

/* Hybrid search's state for the store's admins: whether it is on, its model, how many products have vectors, the last sync. */
export function hybridRoutes(deps: AuthDeps & { hybrid: HybridSearch | null }) {
  const tags = ["Merchandising"];
  return new Elysia().use(authPlugin(deps)).group("/:version", (app) =>
    app
      .get("/hybrid", ({ caller }) => deps.hybrid?.state(caller.store.id) ?? { enabled: false }, {
        auth: "admin",
        detail: {
          summary: "Whether hybrid search is on (EMBEDDINGS_URL), its model, how many products have vectors, and what the last sync did",
          tags,
        },
      })
      .post("/hybrid/sync", ({ caller }) => deps.hybrid?.syncNow(caller.store.id) ?? { enabled: false }, {
        auth: "admin",
        detail: {
          summary: "Embeds the store's changed products now (a sync also runs by itself after every catalog change) and answers the state",
          tags,
        },
      }),
  );
}
