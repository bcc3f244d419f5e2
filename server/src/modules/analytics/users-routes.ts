import { Elysia } from "elysia";
import type { ShopperErasureRepository } from "./storage/shopper-erasure-repository.ts";
import { ValidationError } from "../../errors.ts";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";

const USER_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function usersRoutes(
  deps: AuthDeps & {
    erasure: ShopperErasureRepository;
    catchUp: () => Promise<void>;
    /** Told after a shopper of the store was erased: what is kept in memory of its shoppers goes too. */
    erased: (storeId: string) => void;
  },
) {
  return new Elysia({ prefix: "/:version" }).use(authPlugin(deps)).delete(
    "/users/:userId",
    async ({ params, caller }) => {
      if (!USER_ID.test(params.userId)) {
        throw new ValidationError("userId is 1 to 128 letters, digits, - or _", [
          { path: "params.userId", problem: "is not an anonymous shopper id" },
        ]);
      }
      // Count what is waiting first, so the erased events' anonymous counts stay in the reports.
      await deps.catchUp();
      const erased = await deps.erasure.erase(caller.store.id, params.userId);
      deps.erased(caller.store.id);
      return { userId: params.userId, erased };
    },
    {
      auth: "admin",
      detail: {
        summary: "Erase a shopper",
        description:
          "Deletes the user's events, searches, personalisation profile and their sessions' profiles. Report totals keep their anonymous counts.",
        tags: ["Analytics"],
      },
    },
  );
}
