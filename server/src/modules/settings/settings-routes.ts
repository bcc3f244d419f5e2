import { Elysia } from "elysia";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { effectiveSettings } from "./settings-schema.ts";
import type { SettingsService } from "./settings-service.ts";

export function settingsRoutes(deps: AuthDeps & { settings: SettingsService }) {
  return new Elysia({ prefix: "/:version" })
    .use(authPlugin(deps))
    .get("/settings", ({ caller }) => effectiveSettings(caller.store.settings), {
      auth: "admin",
      detail: { summary: "The store's effective settings: what it set, and the default of everything it did not", tags: ["Store"] },
    })
    .patch(
      "/settings",
      async ({ request, caller }) => deps.settings.update(caller.store, await readJsonBody(request, { maxBytes: 64 * 1024 })),
      {
        auth: "admin",
        // Read by the handler, after the key is checked.
        parse: "none",
        detail: {
          summary: "Change some of the store's settings (members given replace the stored ones; null restores a member's default)",
          description:
            "allowedOrigins, newnessDays, vendorLiftPerVendor, ratingPrior {mean, weight}, locale, currencyConversion {currency, rate}, imageSizes {s, m, l}, facets [{key, names {locale: name}, shownValues}], facetShownValues, widget. Answers the effective settings.",
          tags: ["Store"],
        },
      },
    );
}
