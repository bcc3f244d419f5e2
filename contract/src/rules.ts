/*
 * Query rules (merchandising) as the admin API takes and answers them: PUT /rules/{id} takes a RuleBody, GET
 * answers a Rule, POST /rules/preview takes a RulePreviewRequest. The server's validation schema
 * (server/src/modules/rules/rule-schema.ts) is checked against RuleBody when it compiles, and adds the bounds.
 */

import type { Page } from "./admin.ts";

export type Anchoring = "is" | "contains" | "startsWith";

/** One condition of a rule; all of a rule's conditions must hold. */
export interface RuleCondition {
  /** Words the query is, contains or starts with (with `anchoring`). */
  pattern?: string;
  anchoring?: Anchoring;
  /** A collection page's handle. */
  collection?: string;
  /** A facet selection, "key:value". */
  facet?: string;
}

/** A boost or bury: products of a facet selection ("designer:Nike") moved by 1 to 5. */
export interface WeightedSelection {
  filter: string;
  amount: number;
}

export interface RuleConsequence {
  pins?: { productId: string; position: number }[];
  hide?: string[];
  boost?: WeightedSelection[];
  bury?: WeightedSelection[];
  /** Facet selections the results are filtered by ("price:0-50" too). */
  filters?: string[];
  replaceWords?: { word: string; with: string }[];
  removeWords?: string[];
  /** A page to send the shopper to: an http(s) URL or a path on the store. */
  redirect?: string;
  /** Returned with the search answer (`userData`); `type: "banner"` entries are shown over the results. */
  userData?: Record<string, unknown>[];
}

/** What PUT /rules/{id} takes. */
export interface RuleBody {
  conditions: RuleCondition[];
  consequence: RuleConsequence;
  /** ISO 8601: live from, and until (exclusive). */
  from?: string;
  until?: string;
  /** Absent: true. */
  enabled?: boolean;
  description?: string;
}

/** A stored rule: its body with `enabled` settled, its id and when it was last written. */
export type Rule = RuleBody & { id: string; enabled: boolean; updatedAt: string };

/** GET /rules. */
export type RuleList = Page<"rules", Rule>;

/** POST /rules/preview: the search answer as if `rule` were live under `id` (default "draft"); nothing is saved. */
export interface RulePreviewRequest {
  id?: string;
  rule: RuleBody;
  /** GET /search's parameters. */
  search: Record<string, string | number | boolean>;
}
