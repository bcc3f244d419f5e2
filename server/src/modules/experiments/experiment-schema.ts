import { Type } from "@sinclair/typebox";
import type {
  Experiment as WireExperiment,
  ExperimentBody as WireExperimentBody,
  ExperimentScope,
  ExperimentStatus as WireExperimentStatus,
  VariantOverrides,
} from "@storefront-search/contract";
import { ValidationError, type ErrorDetail } from "../../errors.ts";
import { schemaFor, schemaProblems } from "../../schema-check.ts";
import { normalizeQuery } from "../../text/normalize.ts";
import { StoreSettings } from "../settings/settings-schema.ts";
import { facetKeyProblems } from "../settings/settings-service.ts";
import { RULE_ID } from "../rules/rule-schema.ts";

/*
 * An experiment as the API takes and answers it. A variant's overrides are a closed, bounded object: every key is
 * one a variant may change, so a typo is a 400 naming the field rather than a variant that silently tests nothing.
 */

export const MAX_EXPERIMENTS_PER_STORE = 100;
export const MAX_VARIANTS = 5;
export const EXPERIMENT_BYTES = 64 * 1024;
const MAX_IDS = 100;

/** The store settings a variant may change: the ones that decide what shoppers see, not how the store is run. */
export const VARIANT_SETTINGS = [
  "behaviourRanking",
  "personalisation",
  "facets",
  "facetShownValues",
  "newnessDays",
  "vendorLiftPerVendor",
  "ratingPrior",
  "widget",
] as const;

const text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const ids = Type.Array(Type.String({ pattern: RULE_ID.source }), { maxItems: MAX_IDS, uniqueItems: true });
const weight = Type.Number({ minimum: 0, maximum: 1 });

export const Overrides = Type.Object(
  {
    settings: Type.Optional(Type.Pick(StoreSettings, [...VARIANT_SETTINGS], { additionalProperties: false })),
    /** Query rules in force for this variant's shoppers only. */
    rules: Type.Optional(ids),
    /** Synonym sets in force for this variant's shoppers only. */
    synonymSets: Type.Optional(ids),
    /** Complete-the-look: how many looks are composed, and what a piece's composed score weighs. */
    looks: Type.Optional(
      Type.Object(
        {
          looks: Type.Optional(Type.Integer({ minimum: 1, maximum: 9 })),
          weights: Type.Optional(
            Type.Object({ colour: weight, occasion: weight, season: weight, price: weight }, { additionalProperties: false }),
          ),
          shopperEvidence: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type Overrides = VariantOverrides;

export const Scope = Type.Union([
  Type.Object({ type: Type.Literal("all") }, { additionalProperties: false }),
  Type.Object(
    {
      type: Type.Literal("query"),
      pattern: text(200),
      anchoring: Type.Union([Type.Literal("is"), Type.Literal("startsWith"), Type.Literal("contains")]),
    },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal("collection"), collection: text(256) }, { additionalProperties: false }),
]);

export type Scope = ExperimentScope;

const Variant = Type.Object(
  {
    name: text(100),
    /** Percent of the scope's shoppers, whole numbers; the variants' shares sum to 100. */
    share: Type.Integer({ minimum: 0, maximum: 100 }),
    overrides: Type.Optional(Overrides),
  },
  { additionalProperties: false },
);

// The schema validates exactly the contract's body: the typecheck fails when the two drift apart.
export const ExperimentBody = schemaFor<WireExperimentBody>()(
  Type.Object(
    {
      name: text(200),
      scope: Scope,
      mode: Type.Union([Type.Literal("ab"), Type.Literal("interleaving")]),
      /** The first variant is the control: results compare the others with it. */
      variants: Type.Array(Variant, { minItems: 2, maxItems: MAX_VARIANTS }),
    },
    { additionalProperties: false },
  ),
);
export type ExperimentBody = WireExperimentBody;
export type ExperimentStatus = WireExperimentStatus;
export type Experiment = WireExperiment;

function meaningProblems(body: ExperimentBody, base: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const total = body.variants.reduce((s, v) => s + v.share, 0);
  if (total !== 100) problems.push({ path: `${base}.variants`, problem: `shares must sum to 100 (they sum to ${total})` });
  if (body.scope.type === "query" && !normalizeQuery(body.scope.pattern))
    problems.push({ path: `${base}.scope.pattern`, problem: "must hold a word" });
  const names = new Set<string>();
  body.variants.forEach((v, i) => {
    if (names.has(v.name)) problems.push({ path: `${base}.variants[${i}].name`, problem: `"${v.name}" names two variants` });
    names.add(v.name);
    if (v.overrides?.settings) problems.push(...facetKeyProblems(v.overrides.settings, `${base}.variants[${i}].overrides.settings`));
    const weights = v.overrides?.looks?.weights;
    if (weights && Object.values(weights).every((w) => w === 0))
      problems.push({ path: `${base}.variants[${i}].overrides.looks.weights`, problem: "must weigh at least one fit above 0" });
  });
  // Interleaving mixes two rankings into one list: it compares exactly two variants, and only what ranks.
  if (body.mode === "interleaving") {
    if (body.variants.length !== 2) problems.push({ path: `${base}.variants`, problem: "interleaving compares exactly two variants" });
    body.variants.forEach((v, i) => {
      const other = Object.keys(v.overrides ?? {}).filter((k) => k !== "settings" && k !== "rules" && k !== "synonymSets");
      if (other.length)
        problems.push({
          path: `${base}.variants[${i}].overrides.${other[0]}`,
          problem: "is not a ranking change, which interleaving tests",
        });
    });
  }
  return problems;
}

export function parseExperimentBody(value: unknown, base = "body"): ExperimentBody {
  const problems = schemaProblems(ExperimentBody, value, base);
  if (problems.length === 0) problems.push(...meaningProblems(value as ExperimentBody, base));
  if (problems.length) throw new ValidationError(`Invalid experiment: ${problems[0]!.path} ${problems[0]!.problem}`, problems);
  return value as ExperimentBody;
}

export const EXPERIMENT_ID = /^exp_[a-f0-9]{32}$/;

export function assertExperimentId(id: string, path = "params.id"): void {
  if (!EXPERIMENT_ID.test(id))
    throw new ValidationError("Invalid experiment id", [{ path, problem: "must be an id the API gave (exp_…)" }]);
}
