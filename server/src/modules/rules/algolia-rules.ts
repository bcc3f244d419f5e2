import type { RuleBody, RuleCondition, RuleConsequence } from "@storefront-search/contract";
import { RULE_ID } from "./rule-schema.ts";

/*
 * An Algolia rule export (one object of the array the dashboard or `browseRules` gives) as our rule body, for
 * the consequences we have: promote, hide, filterPromotes, params.filters (facet values joined by AND),
 * params.query edits, userData and params.renderingContent.redirect. Anything else is a problem reported for
 * that rule, never silently dropped: a rule imported without part of its meaning would do something else.
 * The mapped body is then checked like any rule (rule-schema.ts).
 */

type Json = Record<string, unknown>;
type Mapped = { id: string; body: unknown } | { id?: string; problem: string };

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const ANCHORINGS = new Set(["is", "startsWith", "contains"]);
/** Algolia's documented params a rule may carry and we map; any other is reported. */
const MAPPED_PARAMS = new Set(["filters", "query", "renderingContent"]);

class Unmappable extends Error {}
const fail = (message: string): never => {
  throw new Unmappable(message);
};

/** "brand:Nike AND \"color\":\"Dark blue\"" as facet selections; OR, NOT, parentheses and numbers cannot be mapped. */
function filterList(filters: string, path: string): string[] {
  if (/\b(OR|NOT)\b|[()<>=]/.test(filters)) fail(`${path}: only facet values joined by AND can be mapped, got "${filters.slice(0, 80)}"`);
  return filters
    .split(/\s+AND\s+/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const m = /^"?([^":]+)"?\s*:\s*"?(.*?)"?$/.exec(part);
      if (!m?.[2]) fail(`${path}: "${part.slice(0, 80)}" is not attribute:value`);
      return `${m![1]!.trim()}:${m![2]}`;
    });
}

function condition(c: unknown, path: string): RuleCondition {
  if (!isObject(c)) return fail(`${path} must be an object`);
  if (c.context !== undefined) fail(`${path}.context: rule contexts cannot be mapped (search has no ruleContexts)`);
  if (c.alternatives === true) fail(`${path}.alternatives: matching alternatives (synonyms, plurals) of the pattern cannot be mapped`);
  const out: RuleCondition = {};
  if (c.pattern !== undefined) {
    if (typeof c.pattern !== "string") fail(`${path}.pattern must be a string`);
    if (/\{facet:/.test(c.pattern as string)) fail(`${path}.pattern: facet placeholders ({facet:…}) cannot be mapped`);
    if (!ANCHORINGS.has(String(c.anchoring)))
      fail(`${path}.anchoring "${String(c.anchoring)}" cannot be mapped (is, startsWith, contains)`);
    if ((c.pattern as string).trim() === "") fail(`${path}.pattern: an empty pattern (any or no query) cannot be mapped`);
    out.pattern = c.pattern as string;
    out.anchoring = c.anchoring as RuleCondition["anchoring"];
  }
  if (c.filters !== undefined) {
    if (typeof c.filters !== "string") fail(`${path}.filters must be a string`);
    const facets = filterList(c.filters as string, `${path}.filters`);
    if (facets.length !== 1) fail(`${path}.filters: a condition can require one facet value`);
    out.facet = facets[0];
  }
  if (out.pattern === undefined && out.facet === undefined) fail(`${path}: a condition needs a pattern or filters`);
  return out;
}

function queryEdits(query: unknown, path: string): Pick<RuleConsequence, "removeWords" | "replaceWords"> {
  if (!isObject(query)) return fail(`${path}: replacing the whole query cannot be mapped; use { remove, edits }`);
  const removeWords: string[] = [];
  const replaceWords: { word: string; with: string }[] = [];
  for (const word of (query.remove as unknown[] | undefined) ?? []) removeWords.push(String(word));
  ((query.edits as unknown[] | undefined) ?? []).forEach((e, i) => {
    if (!isObject(e)) return fail(`${path}.edits[${i}] must be an object`);
    if (e.type === "remove") removeWords.push(String(e.delete));
    else if (e.type === "replace") replaceWords.push({ word: String(e.delete), with: String(e.insert) });
    else fail(`${path}.edits[${i}].type must be remove or replace`);
  });
  return { ...(removeWords.length ? { removeWords } : {}), ...(replaceWords.length ? { replaceWords } : {}) };
}

function consequence(q: unknown, path: string): RuleConsequence {
  if (!isObject(q)) return fail(`${path} is required`);
  const out: RuleConsequence = {};
  for (const key of Object.keys(q)) {
    if (!["promote", "hide", "filterPromotes", "params", "userData"].includes(key)) fail(`${path}.${key} cannot be mapped`);
  }
  if (q.promote !== undefined) {
    if (!Array.isArray(q.promote)) fail(`${path}.promote must be an array`);
    out.pins = (q.promote as unknown[]).flatMap((p, i) => {
      if (!isObject(p) || typeof p.position !== "number") return fail(`${path}.promote[${i}] needs objectID or objectIDs and a position`);
      const ids = Array.isArray(p.objectIDs) ? (p.objectIDs as unknown[]) : [p.objectID];
      if (ids.some((id) => typeof id !== "string")) fail(`${path}.promote[${i}] needs objectID or objectIDs`);
      // Algolia positions count from 0 and objectIDs fill consecutive ones.
      return (ids as string[]).map((productId, k) => ({ productId, position: (p.position as number) + k + 1 }));
    });
  }
  if (q.hide !== undefined) {
    if (!Array.isArray(q.hide)) fail(`${path}.hide must be an array`);
    out.hide = (q.hide as unknown[]).map((h, i) =>
      isObject(h) && typeof h.objectID === "string" ? h.objectID : fail(`${path}.hide[${i}] needs an objectID`),
    );
  }
  if (q.params !== undefined) {
    if (!isObject(q.params)) fail(`${path}.params must be an object`);
    const params = q.params as Json;
    for (const key of Object.keys(params)) if (!MAPPED_PARAMS.has(key)) fail(`${path}.params.${key} cannot be mapped`);
    if (params.filters !== undefined) out.filters = filterList(String(params.filters), `${path}.params.filters`);
    if (params.query !== undefined) Object.assign(out, queryEdits(params.query, `${path}.params.query`));
    if (params.renderingContent !== undefined) {
      const redirect =
        isObject(params.renderingContent) && isObject(params.renderingContent.redirect) ? params.renderingContent.redirect.url : undefined;
      if (typeof redirect !== "string") fail(`${path}.params.renderingContent: only redirect.url can be mapped`);
      out.redirect = redirect as string;
    }
  }
  if (q.userData !== undefined) {
    const list = Array.isArray(q.userData) ? q.userData : [q.userData];
    if (!list.every(isObject)) fail(`${path}.userData must be an object or an array of objects`);
    out.userData = list as Record<string, unknown>[];
  }
  return out;
}

export function fromAlgolia(item: unknown, path: string): Mapped {
  if (!isObject(item)) return { problem: `${path} must be an object` };
  const id = typeof item.objectID === "string" ? item.objectID : undefined;
  if (!id || !RULE_ID.test(id))
    return { ...(id ? { id } : {}), problem: `${path}.objectID must be 1 to 128 letters, digits, '_', '.', ':' or '-'` };
  try {
    const conditions = Array.isArray(item.conditions) ? item.conditions : item.condition !== undefined ? [item.condition] : [];
    if (conditions.length === 0) fail(`${path}: a rule without conditions (applied to every search) cannot be mapped`);
    const body: RuleBody = {
      conditions: conditions.map((c, i) => condition(c, Array.isArray(item.conditions) ? `${path}.conditions[${i}]` : `${path}.condition`)),
      consequence: consequence(item.consequence, `${path}.consequence`),
    };
    if (item.validity !== undefined) {
      if (!Array.isArray(item.validity) || item.validity.length !== 1 || !isObject(item.validity[0]))
        fail(`${path}.validity: exactly one time range can be mapped`);
      const range = (item.validity as Json[])[0]!;
      const seconds = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0 && v < 1e11;
      if (!seconds(range.from) || !seconds(range.until)) fail(`${path}.validity[0] needs from and until in Unix seconds`);
      body.from = new Date((range.from as number) * 1000).toISOString();
      body.until = new Date((range.until as number) * 1000).toISOString();
    }
    if (typeof item.enabled === "boolean") body.enabled = item.enabled;
    if (typeof item.description === "string") body.description = item.description.slice(0, 500);
    return { id, body };
  } catch (error) {
    if (error instanceof Unmappable) return { id, problem: error.message };
    throw error;
  }
}
