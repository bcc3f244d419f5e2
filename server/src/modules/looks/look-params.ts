import { ValidationError, type ErrorDetail } from "../../errors.ts";
import { flag, shopperParams, text, type Raw, type ShopperIds } from "../../http/query-params.ts";

/* GET /ctl parameters, and the body of a store's pinned looks. */

export interface LookParams extends ShopperIds {
  productId: string;
  /** The variant the shopper is looking at: its colour is the one the looks go with. */
  variantId?: string;
  /** Each piece's slot, score and reasons (admin key only: checked by the route). */
  explain: boolean;
}

export function parseLookParams(raw: Raw): LookParams {
  const productId = text(raw, "productId", 256);
  if (!productId) throw new ValidationError("Give a productId", [{ path: "query.productId", problem: "is required" }]);
  return { productId, variantId: text(raw, "variantId", 256), explain: flag(raw, ["explain"], false), ...shopperParams(raw) };
}

/** Pinned looks a store may give a product at most, and products per look. */
export const MAX_PINNED_LOOKS = 9;
export const MAX_PINNED_PIECES = 8;

/** `{ "looks": [["id", …], …] }`: 1 to 9 looks of 1 to 8 distinct product ids each. */
export function parsePinnedLooks(body: unknown): string[][] {
  const looks = (body as { looks?: unknown } | null)?.looks;
  const problem = (path: string, what: string): never => {
    throw new ValidationError(`Invalid pinned looks: ${path} ${what}`, [{ path, problem: what }]);
  };
  if (!Array.isArray(looks)) return problem("body.looks", "must be an array of looks, each an array of product ids");
  if (looks.length < 1 || looks.length > MAX_PINNED_LOOKS) return problem("body.looks", `must hold 1 to ${MAX_PINNED_LOOKS} looks`);
  const problems: ErrorDetail[] = [];
  const parsed = looks.map((look, i) => {
    if (!Array.isArray(look) || look.length < 1 || look.length > MAX_PINNED_PIECES) {
      problems.push({ path: `body.looks[${i}]`, problem: `must be an array of 1 to ${MAX_PINNED_PIECES} product ids` });
      return [];
    }
    look.forEach((id, j) => {
      if (typeof id !== "string" || id.length < 1 || id.length > 256)
        problems.push({ path: `body.looks[${i}][${j}]`, problem: "must be a product id (1 to 256 characters)" });
    });
    if (new Set(look).size !== look.length) problems.push({ path: `body.looks[${i}]`, problem: "names a product twice" });
    return look as string[];
  });
  if (problems.length)
    throw new ValidationError(`Invalid pinned looks: ${problems[0]!.path} ${problems[0]!.problem}`, problems.slice(0, 20));
  return parsed;
}
