import { KindGuard, type TSchema } from "@sinclair/typebox";

/*
 * Tolerance for messy feeds, read off a TypeBox schema: what a feed means as "absent" is made absent before
 * validation, so it is not rejected. Dropped, each counting one warning:
 * - an optional property that is null, or a blank string (empty or whitespace only) where the property takes a
 *   string (a blank brand is no brand);
 * - a null entry of an array, a blank entry of an array of strings, a null value of a record.
 * Required properties are never touched, so `name: ""` stays invalid. Anything of the wrong shape is left as it
 * is for validation to report. Unions of objects are not entered: which branch applies is for the caller to say.
 */

/** Cleans `value` in place and returns how many things it dropped. */
export type Cleaner = (value: unknown) => number;

function isBlank(v: unknown): boolean {
  if (typeof v !== "string") return false;
  const first = v.charCodeAt(0);
  // Most strings start with a printable ASCII character: no need to trim them.
  return !(first > 32 && first < 127) && v.trim() === "";
}

const isRecordValue = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether the schema's values are strings (plain, or one of some string literals). */
function takesString(schema: TSchema): boolean {
  if (KindGuard.IsString(schema)) return true;
  return KindGuard.IsUnion(schema) && schema.anyOf.every((s) => KindGuard.IsLiteral(s) && typeof s.const === "string");
}

interface PropertyRule {
  key: string;
  optional: boolean;
  blankIsAbsent: boolean;
  inner: Cleaner | null;
}

function objectCleaner(properties: Record<string, TSchema>, required: readonly string[]): Cleaner | null {
  const rules: PropertyRule[] = Object.entries(properties)
    .map(([key, schema]) => {
      const optional = !required.includes(key);
      return { key, optional, blankIsAbsent: optional && takesString(schema), inner: compileCleaner(schema) };
    })
    .filter((r) => r.optional || r.inner);
  if (rules.length === 0) return null;
  return (value) => {
    if (!isRecordValue(value)) return 0;
    let dropped = 0;
    for (const rule of rules) {
      // A missing key reads undefined: schemas name fields, not members of Object.prototype.
      const v = value[rule.key];
      if (v === undefined) continue;
      if (rule.optional && (v === null || (rule.blankIsAbsent && isBlank(v)))) {
        delete value[rule.key];
        dropped++;
      } else if (rule.inner) {
        dropped += rule.inner(v);
      }
    }
    return dropped;
  };
}

function arrayCleaner(items: TSchema): Cleaner {
  const blankIsAbsent = takesString(items);
  const inner = compileCleaner(items);
  return (value) => {
    if (!Array.isArray(value)) return 0;
    let kept = 0;
    let dropped = 0;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v === null || (blankIsAbsent && isBlank(v))) continue;
      if (inner) dropped += inner(v);
      if (kept !== i) value[kept] = v;
      kept++;
    }
    if (kept === value.length) return dropped;
    dropped += value.length - kept;
    value.length = kept;
    return dropped;
  };
}

function recordCleaner(values: TSchema): Cleaner {
  const inner = compileCleaner(values);
  return (value) => {
    if (!isRecordValue(value)) return 0;
    let dropped = 0;
    for (const key of Object.keys(value)) {
      if (value[key] === null) {
        delete value[key];
        dropped++;
      } else if (inner) {
        dropped += inner(value[key]);
      }
    }
    return dropped;
  };
}

const compiled = new WeakMap<TSchema, Cleaner | null>();

/** The cleaner of a schema, built once; null when the schema has nothing a feed could leave blank. */
export function compileCleaner(schema: TSchema): Cleaner | null {
  if (compiled.has(schema)) return compiled.get(schema)!;
  let cleaner: Cleaner | null = null;
  if (KindGuard.IsObject(schema)) cleaner = objectCleaner(schema.properties, schema.required ?? []);
  else if (KindGuard.IsArray(schema)) cleaner = arrayCleaner(schema.items);
  else if (KindGuard.IsRecord(schema)) cleaner = recordCleaner(Object.values(schema.patternProperties)[0]!);
  compiled.set(schema, cleaner);
  return cleaner;
}
