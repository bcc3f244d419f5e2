import { t } from "elysia";
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
