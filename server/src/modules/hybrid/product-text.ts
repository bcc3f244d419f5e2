import { createHash } from "node:crypto";
import type { Product } from "../catalog/product-schema.ts";
import { MAX_TEXT_CHARS } from "./embeddings-client.ts";

/** Description characters a product's text keeps: its start says what it is; the rest is care and sizing. */
const DESCRIPTION_CHARS = 600;

/** What a product's vector is made from: what it is (name, brand, categories, colours, features), then its description's start. */
export function productText(p: Product): string {
  const parts = [
    p.name,
    p.brand ? `Brand: ${p.brand}` : "",
    p.categories?.length ? `Category: ${p.categories.join(", ")}` : "",
    (p.variations ?? [])
      .map((v) => v.name ?? "")
      .filter(Boolean)
      .join(", "),
    (p.features ?? []).join(", "),
    (p.description ?? "").slice(0, DESCRIPTION_CHARS),
  ];
  return parts.filter(Boolean).join(". ").slice(0, MAX_TEXT_CHARS);
}

/** The hash a vector is kept with: another model, another length or another text is another vector. */
export function vectorHash(modelKey: string, text: string): string {
  return createHash("sha256").update(modelKey).update("\u0000").update(text).digest("base64url").slice(0, 22);
}
