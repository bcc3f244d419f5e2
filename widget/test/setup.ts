/*
 * DOM for the widget's tests: happy-dom registered on the global object. Import this file FIRST in every test
 * file (`import "./setup.ts";`): tests run from the repository root (`bun test ./widget`), where the widget's own
 * bunfig.toml does not apply, and Lit needs `HTMLElement` and `customElements` when its modules load.
 *
 * Bun's own fetch, Request, Response, Headers and AbortController stay in place: msw intercepts them, the client uses
 * them, and other suites in the same `bun test` process (the server's) need the real ones.
 */
import { GlobalRegistrator } from "@happy-dom/global-registrator";

const native = {
  fetch: globalThis.fetch,
  Request: globalThis.Request,
  Response: globalThis.Response,
  Headers: globalThis.Headers,
  AbortController: globalThis.AbortController,
  AbortSignal: globalThis.AbortSignal,
  FormData: globalThis.FormData,
  ReadableStream: globalThis.ReadableStream,
  Blob: globalThis.Blob,
  URL: globalThis.URL,
  URLSearchParams: globalThis.URLSearchParams,
  TextEncoder: globalThis.TextEncoder,
  TextDecoder: globalThis.TextDecoder,
  crypto: globalThis.crypto,
};

export const SHOP_ORIGIN = "https://shop.example";
export const API_ORIGIN = "https://search.example";

if (!GlobalRegistrator.isRegistered) {
  GlobalRegistrator.register({ url: `${SHOP_ORIGIN}/`, width: 1280, height: 800 });
  for (const [name, value] of Object.entries(native)) {
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
}
