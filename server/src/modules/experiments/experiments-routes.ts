import { Elysia, t } from "elysia";
import { ValidationError } from "../../errors.ts";
import { bad, documentedParam, type Raw } from "../../http/query-params.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { assertExperimentId, EXPERIMENT_BYTES, parseExperimentBody } from "./experiment-schema.ts";
import type { ExperimentsService } from "./experiments-service.ts";

const idParam = t.Object({ version: t.String(), id: t.String({ maxLength: 200 }) });
const TAGS = ["Experiments"];

/** A query number in (min, max], or a 400 naming it. */
function number(raw: Raw, name: string, min: number, max: number): number {
  const value = Number(raw[name]);
  if (raw[name] === undefined || raw[name] === "" || !Number.isFinite(value) || value <= min || value > max)
    throw bad(name, `must be a number above ${min} and at most ${max}`);
  return value;
}

function winnerOf(body: unknown): string {
  const winner = (body as { winner?: unknown } | null)?.winner;
  if (typeof winner !== "string" || !winner)
    throw new ValidationError("Name the winner", [{ path: "body.winner", problem: "must be the winning variant's name" }]);
  return winner;
}

/** Experiments (A/B tests), admin key: define, start, stop, end with a winner, and read results (docs/experiments.md). */
export function experimentsRoutes(deps: AuthDeps & { experiments: ExperimentsService }) {
  const one = (summary: string) => ({ auth: "admin" as const, params: idParam, detail: { summary, tags: TAGS } });
  const withBody = (summary: string) => ({ ...one(summary), parse: "none" as const });
  return new Elysia({ prefix: "/:version" })
    .use(authPlugin(deps))
    .get("/experiments", ({ caller }) => deps.experiments.list(caller.store), {
      auth: "admin",
      detail: { summary: "The store's experiments, by id: { experiments }", tags: TAGS },
    })
    .post(
      "/experiments",
      async ({ request, caller, set }) => {
        const created = await deps.experiments.create(
          caller.store,
          parseExperimentBody(await readJsonBody(request, { maxBytes: EXPERIMENT_BYTES })),
        );
        set.status = 201;
        return created;
      },
      { auth: "admin", parse: "none", detail: { summary: "Create an experiment (a draft): name, scope, mode, variants", tags: TAGS } },
    )
    .get(
      "/experiments/:id",
      ({ params, caller }) => {
        assertExperimentId(params.id);
        return deps.experiments.get(caller.store, params.id);
      },
      one("One experiment"),
    )
    .put(
      "/experiments/:id",
      async ({ params, request, caller }) => {
        assertExperimentId(params.id);
        const body = parseExperimentBody(await readJsonBody(request, { maxBytes: EXPERIMENT_BYTES }));
        return deps.experiments.update(caller.store, params.id, body);
      },
      withBody("Replace a draft experiment's definition (409 once it has started)"),
    )
    .delete(
      "/experiments/:id",
      ({ params, caller }) => {
        assertExperimentId(params.id);
        return deps.experiments.delete(caller.store, params.id);
      },
      one("Delete a draft or stopped experiment"),
    )
    .post(
      "/experiments/:id/start",
      ({ params, caller }) => {
        assertExperimentId(params.id);
        return deps.experiments.start(caller.store, params.id);
      },
      one("Start a draft experiment (409 when another runs on an overlapping scope)"),
    )
    .post(
      "/experiments/:id/stop",
      ({ params, caller }) => {
        assertExperimentId(params.id);
        return deps.experiments.stop(caller.store, params.id);
      },
      one("Stop a running experiment: shoppers see the store's own behaviour again"),
    )
    .post(
      "/experiments/:id/end",
      async ({ params, request, caller }) => {
        assertExperimentId(params.id);
        return deps.experiments.end(caller.store, params.id, winnerOf(await readJsonBody(request, { maxBytes: 4096 })));
      },
      withBody("End with a winner ({ winner: name }): its settings overrides become the store's settings"),
    )
    .get(
      "/experiments/:id/results",
      ({ params, caller }) => {
        assertExperimentId(params.id);
        return deps.experiments.results(caller.store, params.id);
      },
      one(
        "Per variant: shoppers, searches, click-through, add-to-cart and conversion rates, revenue per shopper, with intervals and the difference to the control",
      ),
    )
    .get(
      "/experiments/:id/sample-size",
      ({ params, query, caller }) => {
        assertExperimentId(params.id);
        const raw = query as Raw;
        return deps.experiments.sampleSize(caller.store, params.id, {
          baselineRate: number(raw, "baselineRate", 0, 0.99),
          minimumDetectableLift: number(raw, "minimumDetectableLift", 0, 10),
          dailyShoppers: number(raw, "dailyShoppers", 0, 1e9),
        });
      },
      {
        ...one("Shoppers and days the experiment needs to detect a lift in a rate (alpha 0.05, power 0.8)"),
        query: t.Object(
          {
            baselineRate: documentedParam("The control's rate, e.g. 0.03"),
            minimumDetectableLift: documentedParam("Smallest relative lift worth detecting, e.g. 0.1 for +10%"),
            dailyShoppers: documentedParam("Shoppers a day in the experiment's scope"),
          },
          { additionalProperties: true },
        ),
      },
    );
}
