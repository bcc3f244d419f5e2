/*
 * The event types of POST /tracking and the data fields that say what each is about. The service stores a batch
 * whole or not at all, so an event it would refuse (an unknown type, a missing required field) is dropped here,
 * with a console warning for the store's developers, instead of taking the shopper's other events down with it.
 * The types and their fields are the contract's.
 */

import { EVENT_REQUIRED_FIELDS, LOCALE_EVENT_TYPES } from "@storefront-search/contract";

const REQUIRED: Record<string, readonly string[]> = EVENT_REQUIRED_FIELDS;

/** Why the service would refuse this event, or null. */
export function eventProblem(type: unknown, data: unknown): string | null {
  if (typeof type !== "string" || !Object.hasOwn(REQUIRED, type)) return `unknown event type ${JSON.stringify(type)}`;
  if (!data || typeof data !== "object" || Array.isArray(data)) return `${type}: data must be an object`;
  const missing = REQUIRED[type]!.filter((f) => {
    const v = (data as Record<string, unknown>)[f];
    return v === undefined || v === null || v === "";
  });
  return missing.length ? `${type}: missing ${missing.join(", ")}` : null;
}

export function takesLocale(type: string): boolean {
  return LOCALE_EVENT_TYPES.has(type);
}
