import type { LocaleFields } from "../analytics/event-data.ts";
import type { ApiClient } from "../api/client.ts";
import type { WidgetConfig } from "@storefront-search/contract";
import type { PriceFormat } from "../format/price-format.ts";
import type { UrlEnv } from "./url-state-controller.ts";

/** What a store's cart hook receives (window.StorefrontSearch.setCartHook). */
export interface CartItem {
  productId: string;
  variantId?: string;
  name: string;
  price: number;
  url?: string;
  qty: 1;
}

/** Puts an item into the store's cart; `false` (or a rejection) means it was not added. */
export type CartHook = (item: CartItem) => void | boolean | Promise<void | boolean>;

/**
 * What the head script hands the components it mounts: the store's configuration and the services around it.
 * Components never read `window` themselves; the entry builds this from it (tests build their own).
 */
export interface WidgetContext {
  config: WidgetConfig;
  client: ApiClient;
  priceFormat: PriceFormat;
  locale: LocaleFields;
  track(type: string, data: object): void;
  /** The shopper's anonymous ids (for search personalisation). */
  ids(): { userId?: string; sessionId?: string };
  urlEnv: UrlEnv;
  /** Shows the results of `query`: in place on the results page, elsewhere by going there. */
  showResults(query: string): void;
  /** Follows a link (a product page). */
  openUrl(url: string): void;
  /**
   * Goes to a merchandising rule's page instead of the search results, replacing the results page in the history
   * (Back must not return to a page that would send the shopper on again).
   */
  redirect(url: string): void;
  /** The store's cart hook, asked when needed: a store may register it after the widget started. */
  cart?(): CartHook | null;
  /** The shopper's last searches on this browser, newest first (the empty search box offers them). */
  recentQueries?(): string[];
  /**
   * Scrolls back to where the shopper was on this address when they left it (Back from a product page), once its
   * results are drawn: the browser's own restoring comes before they are there.
   */
  restoreScroll?(): void;
}
