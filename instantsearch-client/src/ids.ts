/** What the service takes as a shopper's user or session id; InstantSearch's `anonymous-<uuid>` tokens are of it. */
const SHOPPER_ID = /^[A-Za-z0-9_-]{1,128}$/;

export const isShopperId = (value: string): boolean => SHOPPER_ID.test(value);

/** `bytes` random bytes as hex: queryIDs, session and order ids the page makes. */
export const randomHex = (bytes: number): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
