import { Elysia } from "elysia";
import type { StoresRepo } from "../../db/stores-repo.ts";
import { ValidationError } from "../../errors.ts";
import { authPlugin, type AuthDeps } from "../../http/auth-plugin.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { schemaProblems } from "../../schema-check.ts";
import { StoreSettings } from "./settings-schema.ts";

export function settingsRoutes(deps: AuthDeps & { stores: StoresRepo; maxBodyBytes: number }) {
  return new Elysia({ prefix: "/:version", name: "settings-routes", seed: deps })
    .use(authPlugin(deps))
    .get("/settings", ({ caller }) => caller.store.settings, {
      auth: "admin",
      detail: { summary: "The store's settings", tags: ["Store"] },
    })
    .patch(
      "/settings",
      ({ body, caller }) => {
        const problems = schemaProblems(StoreSettings, body, "body");
        if (problems.length) throw new ValidationError(`Invalid settings: ${problems[0]!.path} ${problems[0]!.problem}`, problems);
        const merged = { ...caller.store.settings, ...(body as StoreSettings) };
        deps.stores.updateSettings(caller.store.id, merged);
        return merged;
      },
      {
        auth: "admin",
        parse: ({ request }) => readJsonBody(request, { maxBytes: 64 * 1024 }),
        detail: { summary: "Change some of the store's settings (members given replace the stored ones)", tags: ["Store"] },
      },
    );
}
