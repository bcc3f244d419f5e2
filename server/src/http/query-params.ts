import { t } from "elysia";
import { LOCALE_PATTERN, MAX_PAGE_SIZE, MAX_RESULT_WINDOW } from "@storefront-search/contract";
import { ValidationError } from "../errors.ts";

/**
 * A query parameter as a route documents it: optional text. Routes check their parameters themselves, so that
 * every 400 names the parameter.
 */
export const documentedParam = (description: string) => t.Optional(t.String({ description }));

/*
 * Range checks for numeric query parameters. Elysia converts the text to a number, but a failed bound in its
 * schema loses the parameter's name, and every 400 here must say which parameter was wrong.
 */
export function boundedInteger(value: number | undefined, name: string, range: { min: number; max: number; fallback: number }): number {
  if (value === undefined) return range.fallback;
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new ValidationError(`${name} must be a whole number from ${range.min} to ${range.max}`, [
      { path: `query.${name}`, problem: `must be a whole number from ${range.min} to ${range.max}, got ${value}` },
    ]);
  }
  return value;
}

/*
 * The parameters list routes share, read from the raw query so that each 400 names its parameter.
 */

const LOCALE = new RegExp(LOCALE_PATTERN);

export type Raw = Record<string, string | undefined>;

export const bad = (name: string, problem: string) => new ValidationError(`${name} ${problem}`, [{ path: `query.${name}`, problem }]);

export function text(raw: Raw, name: string, max: number): string | undefined {
  const value = raw[name];
  if (value === undefined || value.trim() === "") return undefined;
  if (value.length > max) throw bad(name, `must be at most ${max} characters`);
  if (/[\u0000-\u001f\u007f]/.test(value)) throw bad(name, "must not contain control characters");
  return value.trim();
}

export function flag(raw: Raw, names: string[], fallback: boolean): boolean {
  for (const name of names) {
    const value = raw[name];
    if (value === undefined || value === "") continue;
    if (["true", "1", "yes"].includes(value.toLowerCase())) return true;
    if (["false", "0", "no"].includes(value.toLowerCase())) return false;
    throw bad(name, `must be true or false, got "${value.slice(0, 20)}"`);
  }
  return fallback;
}

function integer(raw: Raw, names: string[], range: { min: number; max: number; fallback: number }): number {
  for (const name of names) {
    const value = raw[name];
    if (value === undefined || value === "") continue;
    if (!/^-?\d+$/.test(value)) throw bad(name, `must be a whole number, got "${value.slice(0, 20)}"`);
    return boundedInteger(Number(value), name, range);
  }
  return range.fallback;
}

/**
 * `from` (alias `offset`) and `pageSize`, within the page size and the result window. `minPageSize` 0 lets a
 * request ask for counts and facets without products.
 */
export function pageParams(raw: Raw, minPageSize = 1): { from: number; pageSize: number } {
  const from = integer(raw, ["from", "offset"], { min: 0, max: MAX_RESULT_WINDOW, fallback: 0 });
  const pageSize = integer(raw, ["pageSize"], { min: minPageSize, max: MAX_PAGE_SIZE, fallback: 30 });
  if (from + pageSize > MAX_RESULT_WINDOW) throw bad("from", `plus pageSize must be at most ${MAX_RESULT_WINDOW}`);
  return { from, pageSize };
}

const ANONYMOUS_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The anonymous shopper a browser route may name: what personalises its answer and assigns experiment variants. */
export interface ShopperIds {
  userId?: string;
  sessionId?: string;
}

/** How routes document the shopper ids they read. */
export const shopperParamDocs = {
  userId: documentedParam("Anonymous shopper id (also UserId): personalises the answer and assigns experiment variants"),
  sessionId: documentedParam("Anonymous session id (also SessionId), when there is no userId"),
};

/** `userId` and `sessionId` (also spelt `UserId`, `SessionId`, as spec versions differ), when given. */
export function shopperParams(raw: Raw): ShopperIds {
  const id = (names: string[]) => {
    for (const name of names) {
      const value = raw[name];
      if (value === undefined || value === "") continue;
      if (!ANONYMOUS_ID.test(value)) throw bad(name, "must be 1 to 128 letters, digits, '-' or '_'");
      return value;
    }
    return undefined;
  };
  const userId = id(["userId", "UserId"]);
  const sessionId = id(["sessionId", "SessionId"]);
  return { ...(userId ? { userId } : {}), ...(sessionId ? { sessionId } : {}) };
}

/** A locale for facet names, when given. */
export function languageParam(raw: Raw): string | undefined {
  const language = text(raw, "language", 35);
  if (language !== undefined && !LOCALE.test(language)) throw bad("language", 'must be a locale such as "en" or "de-CH"');
  return language;
}
