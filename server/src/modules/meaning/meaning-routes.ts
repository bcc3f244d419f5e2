import type { MeaningState, SynonymProposals } from "@storefront-search/contract";
import { Elysia } from "elysia";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import type { MeaningService } from "./meaning-service.ts";
import type { SynonymProposals as Proposals } from "./synonym-proposals.ts";

/* What the store learned of its words' meaning (admin key): its state, a training on demand, and synonym proposals. */
export function meaningRoutes(deps: AuthDeps & { meaning: MeaningService; proposals: Proposals }) {
  const tags = ["Merchandising"];
  const state = (storeId: string): MeaningState => {
    const model = deps.meaning.model(storeId);
    return model ? { trained: true, trainedAt: new Date(model.trainedAt).toISOString(), ...model.size } : { trained: false };
  };
  return new Elysia().use(authPlugin(deps)).group("/:version", (app) =>
    app
      .get("/meaning", ({ caller }) => state(caller.store.id), {
        auth: "admin",
        detail: { summary: "Whether the store's learned meaning is trained, when, and its size (words, products, bytes of vectors)", tags },
      })
      .post(
        "/meaning/train",
        async ({ caller }) => {
          await deps.meaning.train(caller.store.id);
          return state(caller.store.id);
        },
        { auth: "admin", detail: { summary: "Trains the store's learned meaning now (after an import, say) and answers its state", tags } },
      )
      .get("/synonym-proposals", async ({ caller }): Promise<SynonymProposals> => ({ proposals: await deps.proposals.of(caller.store) }), {
        auth: "admin",
        detail: {
          summary:
            "Synonym sets proposed from queries that found nothing or got no clicks, with their evidence; accept one with PUT /synonyms/{id}",
          tags,
        },
      }),
  );
}
