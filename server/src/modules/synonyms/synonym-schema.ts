import type { SynonymBody } from "@storefront-search/contract";
import { ValidationError, type ErrorDetail } from "../../errors.ts";
import { queryWords } from "../../text/normalize.ts";

/*
 * A store's synonym sets as the API takes them (contract/src/synonyms.ts), checked. Multi-way: every phrase finds the others. One-way:
 * typing `input` also finds `synonyms`, never the reverse. Phrases are matched on normalized words (the tokens
 * search matches, text/normalize.ts), so "T-Shirts", "t-shirt" and "tshirt" are one phrase.
 */

export const MAX_SYNONYM_SETS = 5000;
export const MAX_PHRASES_PER_SET = 20;
export const MAX_PHRASE_CHARS = 100;
export const SYNONYM_ID = /^[A-Za-z0-9_.-]{1,64}$/;

// The wire types are the contract's; storage and the matcher read them from here, beside their validation.
export type { SynonymBody, SynonymSet } from "@storefront-search/contract";

export function invalid(details: ErrorDetail[]): ValidationError {
  const first = details[0]!;
  return new ValidationError(`Invalid synonym set: ${first.path} ${first.problem}`, details.slice(0, 20));
}

export function checkSynonymId(id: string, path = "path.id"): void {
  if (!SYNONYM_ID.test(id)) throw invalid([{ path, problem: "must be 1 to 64 characters of A-Z, a-z, 0-9, '_', '.', '-'" }]);
}

/** Problems with one phrase: a string of 1 to MAX_PHRASE_CHARS characters holding a word search can match. */
function phraseProblem(value: unknown): string | null {
  if (typeof value !== "string") return "must be a string";
  if (value.length > MAX_PHRASE_CHARS) return `must be at most ${MAX_PHRASE_CHARS} characters`;
  if (queryWords(value).length === 0) return "must hold a word (letters or digits)";
  return null;
}

/** A PUT body (or an imported item in the store's own shape) checked; problems name the field under `path`. */
export function parseSynonymBody(body: unknown, path = "body"): SynonymBody {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalid([{ path, problem: "must be an object" }]);
  const o = body as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(o))
    if (key !== "synonyms" && key !== "input")
      details.push({ path: `${path}.${key}`, problem: "is not a field of a synonym set (synonyms, input)" });
  const oneWay = o.input !== undefined;
  if (oneWay) {
    const problem = phraseProblem(o.input);
    if (problem) details.push({ path: `${path}.input`, problem });
  }
  const min = oneWay ? 1 : 2;
  if (!Array.isArray(o.synonyms)) details.push({ path: `${path}.synonyms`, problem: "must be an array of words or phrases" });
  else if (o.synonyms.length < min || o.synonyms.length > MAX_PHRASES_PER_SET) {
    details.push({
      path: `${path}.synonyms`,
      problem: `must hold ${min} to ${MAX_PHRASES_PER_SET} words or phrases, got ${o.synonyms.length}`,
    });
  } else {
    o.synonyms.forEach((s, i) => {
      const problem = phraseProblem(s);
      if (problem) details.push({ path: `${path}.synonyms[${i}]`, problem });
    });
  }
  if (details.length) throw invalid(details);
  const synonyms = (o.synonyms as string[]).map((s) => s.trim());
  return oneWay ? { input: (o.input as string).trim(), synonyms } : { synonyms };
}

/** A phrase as the words search matches: its normalized tokens. */
export const phraseTokens = (phrase: string): string[] => queryWords(phrase).map((w) => w.token);
