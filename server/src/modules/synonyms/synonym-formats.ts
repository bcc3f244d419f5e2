import type { ErrorDetail } from "../../errors.ts";
import { ValidationError } from "../../errors.ts";
import type { ImportProblem, SynonymBody, SynonymSet } from "@storefront-search/contract";
import { checkSynonymId, MAX_SYNONYM_SETS, parseSynonymBody } from "./synonym-schema.ts";

/*
 * Synonym sets in the formats a store moves with: ours (the list shape of GET /synonyms), Algolia's synonym
 * export (`synonym` objects are multi-way, `oneWaySynonym` ones one-way from `input`; `objectID` is the id) and
 * Typesense's (`{ id, synonyms, root? }`, a root making the set one-way). An import reads every item it can and
 * reports the others by index: Algolia's other types (altCorrection1, altCorrection2, placeholder) have no
 * equivalent here.
 */

export const SYNONYM_FORMATS = ["native", "algolia", "typesense"] as const;
export type SynonymFormat = (typeof SYNONYM_FORMATS)[number];

export interface ImportItem {
  /** Where the export holds it. */
  index: number;
  id: string;
  body: SynonymBody;
}

export function parseFormat(raw: string | undefined): SynonymFormat {
  const format = raw ?? "native";
  if (!(SYNONYM_FORMATS as readonly string[]).includes(format)) {
    throw new ValidationError(`query.format must be one of ${SYNONYM_FORMATS.join(", ")}`, [
      { path: "query.format", problem: `must be one of ${SYNONYM_FORMATS.join(", ")}` },
    ]);
  }
  return format as SynonymFormat;
}

/** The export's items: an array, or ours as `{ synonyms: [...] }`. */
function itemsOf(body: unknown, format: SynonymFormat): unknown[] {
  if (Array.isArray(body)) return body;
  if (format === "native" && typeof body === "object" && body !== null && Array.isArray((body as { synonyms?: unknown }).synonyms)) {
    return (body as { synonyms: unknown[] }).synonyms;
  }
  const shape = format === "native" ? '{ "synonyms": [...] } or an array' : "an array";
  throw new ValidationError(`body must be ${shape} (the ${format} export)`, [{ path: "body", problem: `must be ${shape}` }]);
}

/** Which export an item's keys mark it as: Algolia's alone has objectID, Typesense's alone has root. */
function shapeOf(item: unknown): SynonymFormat | null {
  if (typeof item !== "object" || item === null) return null;
  if ("objectID" in item) return "algolia";
  if ("root" in item) return "typesense";
  return "id" in item ? "native" : null;
}

/*
 * An export in another format than the one named is refused whole, naming the parameter, rather than guessed: a
 * Typesense set without a root is also a valid set of ours, so guessing per item could read a one-way set as
 * multi-way, and an import that quietly reads nothing must never answer 2xx.
 */
function assertShape(items: readonly unknown[], format: SynonymFormat): void {
  const index = items.findIndex((item) => {
    const shape = shapeOf(item);
    return shape !== null && shape !== format && !(format === "typesense" && shape === "native");
  });
  if (index < 0) return;
  const shape = shapeOf(items[index])!;
  const hint = shape === "native" ? "format=native (or leave format out)" : `format=${shape}`;
  throw new ValidationError(`body[${index}] looks like a ${shape} export, not ${format}; send it with ?${hint}`, [
    { path: "query.format", problem: `is ${format}, but body[${index}] has the shape of a ${shape} export (use ${hint})` },
  ]);
}

const message = (details: readonly ErrorDetail[] | undefined, fallback: string) =>
  details?.length ? details.map((d) => `${d.path} ${d.problem}`).join("; ") : fallback;

/** One item as an id and a body, or why it cannot be imported. */
function readItem(item: unknown, format: SynonymFormat, path: string): Omit<ImportItem, "index"> {
  if (typeof item !== "object" || item === null || Array.isArray(item))
    throw new ValidationError("not an object", [{ path, problem: "must be an object" }]);
  const o = item as Record<string, unknown>;
  const idKey = format === "algolia" ? "objectID" : "id";
  const id = o[idKey];
  if (typeof id !== "string") throw new ValidationError("no id", [{ path: `${path}.${idKey}`, problem: "must be a string" }]);
  checkSynonymId(id, `${path}.${idKey}`);
  if (format === "native") {
    const { id: _id, type: _type, updatedAt: _at, ...body } = o;
    return { id, body: parseSynonymBody(body, path) };
  }
  if (format === "typesense") {
    const { synonyms, root } = o;
    // Typesense writes an absent root as "" in its exports.
    return { id, body: parseSynonymBody(root === undefined || root === "" ? { synonyms } : { input: root, synonyms }, path) };
  }
  if (o.type === "synonym") return { id, body: parseSynonymBody({ synonyms: o.synonyms }, path) };
  if (o.type === "oneWaySynonym") return { id, body: parseSynonymBody({ input: o.input, synonyms: o.synonyms }, path) };
  throw new ValidationError("unsupported", [
    { path: `${path}.type`, problem: `${JSON.stringify(o.type)} is not supported (only synonym and oneWaySynonym)` },
  ]);
}

/** The items an export holds that can be imported, and the others with their index and why. */
export function readImport(body: unknown, format: SynonymFormat): { items: ImportItem[]; errors: ImportProblem[] } {
  const items: ImportItem[] = [];
  const errors: ImportProblem[] = [];
  const seen = new Set<string>();
  const all = itemsOf(body, format);
  // Refused before reading any item: an export that cannot fit would only answer one error per extra item.
  if (all.length > MAX_SYNONYM_SETS) {
    throw new ValidationError(`The export holds ${all.length} synonym sets; a store holds at most ${MAX_SYNONYM_SETS}`, [
      { path: "body", problem: `must hold at most ${MAX_SYNONYM_SETS} synonym sets` },
    ]);
  }
  assertShape(all, format);
  all.forEach((item, index) => {
    const path = `body[${index}]`;
    try {
      const read = readItem(item, format, path);
      if (seen.has(read.id)) throw new ValidationError("duplicate", [{ path, problem: `repeats the id "${read.id}" of an earlier item` }]);
      seen.add(read.id);
      items.push({ index, ...read });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const rawId =
        typeof item === "object" && item !== null ? (item as Record<string, unknown>)[format === "algolia" ? "objectID" : "id"] : undefined;
      errors.push({ index, ...(typeof rawId === "string" ? { id: rawId } : {}), message: message(error.details, error.message) });
    }
  });
  return { items, errors };
}

/** Sets as an export in `format`. */
export function writeExport(sets: readonly SynonymSet[], format: SynonymFormat): unknown {
  switch (format) {
    case "native":
      return { synonyms: sets };
    case "algolia":
      return sets.map((s) =>
        s.input === undefined
          ? { objectID: s.id, type: "synonym", synonyms: s.synonyms }
          : { objectID: s.id, type: "oneWaySynonym", input: s.input, synonyms: s.synonyms },
      );
    case "typesense":
      return sets.map((s) =>
        s.input === undefined ? { id: s.id, synonyms: s.synonyms } : { id: s.id, root: s.input, synonyms: s.synonyms },
      );
  }
}
