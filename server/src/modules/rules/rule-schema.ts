import { Type } from "@sinclair/typebox";
import type { RuleBody as WireRuleBody } from "@storefront-search/contract";
import { ValidationError, type ErrorDetail } from "../../errors.ts";
import { schemaFor, schemaProblems } from "../../schema-check.ts";
import { isTermFacetKey, PRICE_FACET } from "../facets/facet-keys.ts";
import { ruleWords } from "./rule-words.ts";

/*
 * A query rule as the API takes it, validated: the contract's RuleBody (contract/src/rules.ts) with bounds. Every count and length is bounded here, so a rule can never make
 * a search do unbounded work, and every 400 names the field (e.g. "body.consequence.pins[3].position").
 */

export const MAX_RULES_PER_STORE = 2_000;
/** A rule's JSON as PUT or previewed. */
export const RULE_BYTES = 64 * 1024;
export const MAX_CONDITIONS = 10;
/** Pins and hides each, per rule. */
export const MAX_PRODUCTS_PER_RULE = 50;
/** Boosts and buries together, per rule: the engines' weighted sort takes at most three selections (types.ts). */
export const MAX_WEIGHTED_PER_RULE = 3;
export const MAX_FILTERS_PER_RULE = 10;
export const MAX_WORD_EDITS = 10;
export const MAX_USER_DATA = 10;
const MAX_USER_DATA_BYTES = 4_096;
/** Positions a pin may ask for: the first pages, where merchandising happens. */
export const MAX_PIN_POSITION = 200;
export const MAX_AMOUNT = 5;
export const RULE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

const text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const productId = text(256);
const facetText = text(320);
const weighted = Type.Array(
  Type.Object({ filter: facetText, amount: Type.Integer({ minimum: 1, maximum: MAX_AMOUNT }) }, { additionalProperties: false }),
  {
    maxItems: MAX_WEIGHTED_PER_RULE,
  },
);

export const Anchoring = Type.Union([Type.Literal("is"), Type.Literal("contains"), Type.Literal("startsWith")]);

const Condition = Type.Object(
  {
    pattern: Type.Optional(text(200)),
    anchoring: Type.Optional(Anchoring),
    collection: Type.Optional(text(256)),
    facet: Type.Optional(facetText),
  },
  { additionalProperties: false },
);

const Consequence = Type.Object(
  {
    pins: Type.Optional(
      Type.Array(
        Type.Object({ productId, position: Type.Integer({ minimum: 1, maximum: MAX_PIN_POSITION }) }, { additionalProperties: false }),
        {
          maxItems: MAX_PRODUCTS_PER_RULE,
        },
      ),
    ),
    hide: Type.Optional(Type.Array(productId, { maxItems: MAX_PRODUCTS_PER_RULE })),
    boost: Type.Optional(weighted),
    bury: Type.Optional(weighted),
    filters: Type.Optional(Type.Array(facetText, { maxItems: MAX_FILTERS_PER_RULE })),
    replaceWords: Type.Optional(
      Type.Array(Type.Object({ word: text(64), with: text(200) }, { additionalProperties: false }), { maxItems: MAX_WORD_EDITS }),
    ),
    removeWords: Type.Optional(Type.Array(text(64), { maxItems: MAX_WORD_EDITS })),
    redirect: Type.Optional(text(2_048)),
    userData: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: MAX_USER_DATA })),
  },
  { additionalProperties: false },
);

export const RuleBody = schemaFor<WireRuleBody>()(
  Type.Object(
    {
      conditions: Type.Array(Condition, { minItems: 1, maxItems: MAX_CONDITIONS }),
      consequence: Consequence,
      from: Type.Optional(Type.String({ maxLength: 40 })),
      until: Type.Optional(Type.String({ maxLength: 40 })),
      enabled: Type.Optional(Type.Boolean()),
      description: Type.Optional(Type.String({ maxLength: 500 })),
    },
    { additionalProperties: false },
  ),
);

/** A facet selection of a rule ("designer:Nike", "price:0-50"), split; null when it is not key:value of a known key. */
export function facetSelection(textValue: string, allowPrice: boolean): { key: string; value: string } | null {
  const colon = textValue.indexOf(":");
  if (colon <= 0 || colon === textValue.length - 1) return null;
  const key = textValue.slice(0, colon).trim();
  const value = textValue.slice(colon + 1).trim();
  if (!value || !(isTermFacetKey(key) || (allowPrice && key === PRICE_FACET && priceRange(value)))) return null;
  return { key, value };
}

/** "lb-ub" with at least one bound, lb <= ub: what a price selection takes (facet-selection.ts). */
function priceRange(value: string): boolean {
  const m = /^(\d+(?:\.\d+)?)?-(\d+(?:\.\d+)?)?$/.exec(value);
  return !!m && (m[1] !== undefined || m[2] !== undefined) && (m[1] === undefined || m[2] === undefined || Number(m[1]) <= Number(m[2]));
}

const REDIRECT = /^(https?:\/\/[^\s/]+[^\s]*|\/(?!\/)[^\s]*)$/;

/** What the schema cannot say: words a pattern keeps, facet syntax, dates, a redirect's form, something to do. */
function meaningProblems(body: WireRuleBody, base: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const add = (path: string, problem: string) => problems.push({ path: `${base}.${path}`, problem });
  body.conditions.forEach((c, i) => {
    if (c.pattern === undefined && c.collection === undefined && c.facet === undefined)
      add(`conditions[${i}]`, "needs a pattern, a collection or a facet");
    if ((c.pattern === undefined) !== (c.anchoring === undefined))
      add(
        `conditions[${i}].${c.pattern === undefined ? "pattern" : "anchoring"}`,
        "is required with " + (c.pattern === undefined ? "anchoring" : "pattern"),
      );
    if (c.pattern !== undefined && ruleWords(c.pattern).length === 0) add(`conditions[${i}].pattern`, "has no letters or digits");
    if (c.facet !== undefined && !facetSelection(c.facet, false))
      add(`conditions[${i}].facet`, 'must be "key:value" with a facet key such as designer or category.lvl0');
  });
  const q = body.consequence;
  for (const kind of ["boost", "bury"] as const) {
    q[kind]?.forEach(
      (b, i) =>
        facetSelection(b.filter, false) || add(`consequence.${kind}[${i}].filter`, 'must be "key:value" with a facet key such as designer'),
    );
  }
  if ((q.boost?.length ?? 0) + (q.bury?.length ?? 0) > MAX_WEIGHTED_PER_RULE)
    add("consequence.bury", `boost and bury together hold at most ${MAX_WEIGHTED_PER_RULE}`);
  q.filters?.forEach(
    (f, i) => facetSelection(f, true) || add(`consequence.filters[${i}]`, 'must be "key:value" with a facet key, or "price:lb-ub"'),
  );
  q.replaceWords?.forEach((r, i) => {
    if (ruleWords(r.word).length !== 1) add(`consequence.replaceWords[${i}].word`, "must be one word");
    if (ruleWords(r.with).length === 0) add(`consequence.replaceWords[${i}].with`, "has no letters or digits");
  });
  q.removeWords?.forEach((w, i) => ruleWords(w).length !== 1 && add(`consequence.removeWords[${i}]`, "must be one word"));
  if (q.redirect !== undefined && !REDIRECT.test(q.redirect))
    add("consequence.redirect", 'must be an http(s) URL or a path starting with "/"');
  q.userData?.forEach(
    (d, i) =>
      JSON.stringify(d).length > MAX_USER_DATA_BYTES &&
      add(`consequence.userData[${i}]`, `must be at most ${MAX_USER_DATA_BYTES} bytes as JSON`),
  );
  const effects = [q.pins, q.hide, q.boost, q.bury, q.filters, q.replaceWords, q.removeWords, q.userData].some(
    (list) => (list?.length ?? 0) > 0,
  );
  if (!effects && q.redirect === undefined)
    add("consequence", "must do something: pins, hide, boost, bury, filters, replaceWords, removeWords, redirect or userData");
  const from = body.from === undefined ? undefined : Date.parse(body.from);
  const until = body.until === undefined ? undefined : Date.parse(body.until);
  if (from !== undefined && Number.isNaN(from)) add("from", "must be an ISO 8601 date");
  if (until !== undefined && Number.isNaN(until)) add("until", "must be an ISO 8601 date");
  if (from !== undefined && until !== undefined && from >= until) add("until", "must be after from");
  return problems;
}

/** A rule body checked, or a ValidationError whose details name each field at fault (under `base`). */
export function parseRuleBody(value: unknown, base = "body"): WireRuleBody {
  const problems = schemaProblems(RuleBody, value, base);
  if (problems.length === 0) problems.push(...meaningProblems(value as WireRuleBody, base));
  if (problems.length) throw new ValidationError(`Invalid rule: ${problems[0]!.path} ${problems[0]!.problem}`, problems);
  return value as WireRuleBody;
}

export function assertRuleId(id: string, path = "params.id"): void {
  if (!RULE_ID.test(id))
    throw new ValidationError(`Invalid rule id`, [{ path, problem: "must be 1 to 128 letters, digits, '_', '.', ':' or '-'" }]);
}
