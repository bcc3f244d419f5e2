/*
 * HTML built with a tagged template that escapes every interpolated value, so catalog text can never become
 * markup. Nested fragments made with `html` pass through unescaped; arrays of fragments are joined.
 */

const SAFE = Symbol("safe-html");

export interface SafeHtml {
  [SAFE]: true;
  value: string;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const isSafe = (v: unknown): v is SafeHtml => typeof v === "object" && v !== null && SAFE in v;

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(render).join("");
  if (isSafe(value)) return value.value;
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((v, i) => (out += render(v) + strings[i + 1]!));
  return { [SAFE]: true, value: out };
}

/** Markup written in this codebase (a stylesheet, say); never pass data through it. */
export function rawHtml(constant: string): SafeHtml {
  return { [SAFE]: true, value: constant };
}

export function htmlResponse(page: SafeHtml, status = 200): Response {
  return new Response("<!doctype html>\n" + page.value, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "x-content-type-options": "nosniff" },
  });
}
