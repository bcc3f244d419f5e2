import type { Banner } from "@storefront-search/contract";

/*
 * What a store's merchandising rules put on the page: a redirect, and banners among their custom data. Rules are
 * store data that the service checks, but the widget is the last place that can keep a `javascript:` or `data:`
 * address out of a link or the location bar, so every address is checked again here.
 */

/** An http(s) address, absolute or relative to `base` (the page); anything else is null. */
export function safeUrl(url: unknown, base: string): string | null {
  if (typeof url !== "string" || !url.trim()) return null;
  try {
    const target = new URL(url.trim(), base);
    return target.protocol === "https:" || target.protocol === "http:" ? target.href : null;
  } catch {
    return null;
  }
}

/** At most this many banners show; a rule set that returns more is a mistake, not a page of banners. */
const MAX_BANNERS = 3;

/** The `type: "banner"` entries with a title, their addresses checked (a bad address is dropped, not the banner). */
export function bannersOf(userData: unknown, base: string): Banner[] {
  if (!Array.isArray(userData)) return [];
  const banners: Banner[] = [];
  for (const entry of userData) {
    if (banners.length === MAX_BANNERS) break;
    if (!entry || typeof entry !== "object") continue;
    const e = entry as Record<string, unknown>;
    if (e.type !== "banner" || typeof e.title !== "string" || !e.title.trim()) continue;
    const image = safeUrl(e.image, base);
    const link = safeUrl(e.link, base);
    banners.push({
      type: "banner",
      title: e.title,
      ...(typeof e.text === "string" && e.text ? { text: e.text } : {}),
      ...(image ? { image } : {}),
      ...(link ? { link } : {}),
    });
  }
  return banners;
}
