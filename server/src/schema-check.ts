import type { Static, TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import type { ValueError } from "@sinclair/typebox/value";
import type { ErrorDetail } from "./errors.ts";

/*
 * Validation with compiled TypeBox checkers (fast enough for 10,000-product bodies) and problems reported as
 * readable field paths, e.g. "body[3].skus[0].availability: must be one of InStock, OutOfStock".
 */

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();
const MAX_DETAILS = 20;
// Paths are echoed in answers and stored on tasks: an unknown key of a megabyte must not be, whole.
const MAX_KEY_IN_PATH = 100;

function checker(schema: TSchema): TypeCheck<TSchema> {
  let c = compiled.get(schema);
  if (!c) {
    c = TypeCompiler.Compile(schema);
    compiled.set(schema, c);
  }
  return c;
}

/** "/skus/0/availability" under "body[3]" -> "body[3].skus[0].availability". */
export function joinPath(base: string, pointer: string): string {
  let out = base;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const part = key.length > MAX_KEY_IN_PATH ? key.slice(0, MAX_KEY_IN_PATH) + "…" : key;
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

function describe(error: ValueError): string {
  const schema = error.schema as TSchema & { anyOf?: { const?: unknown }[] };
  if (schema.anyOf?.length && schema.anyOf.every((s) => typeof s.const === "string")) {
    return `must be one of ${schema.anyOf.map((s) => s.const).join(", ")}`;
  }
  if (error.value === undefined) return "is required";
  if (schema.pattern && typeof error.value === "string")
    return `${error.message.toLowerCase()} (got ${JSON.stringify(error.value.slice(0, 60))})`;
  if (error.message.startsWith("Unexpected property")) return "is not a known field";
  return error.message.charAt(0).toLowerCase() + error.message.slice(1);
}

export function isValid<T extends TSchema>(schema: T, value: unknown): boolean {
  return checker(schema).Check(value);
}

/** Problems of `value` against `schema`, first per path, at most `max`. Empty when valid. */
export function schemaProblems(schema: TSchema, value: unknown, basePath: string, max = MAX_DETAILS): ErrorDetail[] {
  const c = checker(schema);
  if (c.Check(value)) return [];
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const error of c.Errors(value)) {
    const path = joinPath(basePath, error.path);
    // A union reports its branches' errors after its own; the first one is the most useful.
    if ([...seen].some((p) => p === path || path.startsWith(p + ".") || path.startsWith(p + "["))) continue;
    seen.add(path);
    details.push({ path, problem: describe(error) });
    if (details.length >= max) break;
  }
  return details;
}

/** Identity, not assignability: an optional member one side lacks makes the two differ. */
type Exactly<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? unknown : never;

/**
 * A schema that validates a wire type of the contract (@storefront-search/contract): the call compiles only when
 * the schema's static type and `Wire` are the same type, so the validation and the type the
 * clients are written against cannot drift apart. The schema adds what a type cannot say (bounds, patterns).
 */
export const schemaFor =
  <Wire>() =>
  <S extends TSchema>(schema: S & Exactly<Static<S>, Wire>): S =>
    schema;
