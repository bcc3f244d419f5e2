import type { ExperimentTag, VariantOverrides } from "@storefront-search/contract";
import type { ShopperIds } from "../../http/query-params.ts";
import type { StoreRow } from "../stores/storage/stores-repository.ts";
import type { StoreSettings } from "./settings-schema.ts";

/*
 * What a running experiment's variant changes in the answers beside search: similar products, complete-the-look and
 * the widget's configuration. The experiments module decides the variant (running-experiments.ts); the composition
 * root hands these answers the lookup, so that features of the same tier need not import each other.
 */

/** One shopper's variant, as an answer other than a search applies it. */
export interface ShopperVariant {
  /** What the answer names; null when the request names no shopper, who sees the control and is not counted. */
  tag: ExperimentTag | null;
  settings: Partial<StoreSettings>;
  looks: VariantOverrides["looks"] | null;
}

/** The variant of the A/B experiment covering a request that names no query (a product page, the widget's start). */
export type ShopperVariants = (store: StoreRow, shopper: ShopperIds) => Promise<ShopperVariant | null>;

/**
 * A variant's settings as they apply over the store's: each replaces the store's, but `widget`, whose members go
 * over the store's widget settings, so that a variant tests the widget settings it names and keeps the rest. The same
 * when the variant wins and its settings become the store's.
 */
export function overStore(store: Pick<StoreRow, "settings">, settings: Partial<StoreSettings>): Partial<StoreSettings> {
  return settings.widget ? { ...settings, widget: { ...(store.settings.widget as object | undefined), ...settings.widget } } : settings;
}

/** The store as the variant's shoppers see it. */
export function inVariant(store: StoreRow, variant: Pick<ShopperVariant, "settings"> | null | undefined): StoreRow {
  return variant && Object.keys(variant.settings).length
    ? { ...store, settings: { ...store.settings, ...overStore(store, variant.settings) } }
    : store;
}

/** The answer naming the experiment and variant, when the shopper has one. */
export function tagged<T extends object>(answer: T, variant: Pick<ShopperVariant, "tag"> | null): T & { experiment?: ExperimentTag } {
  return variant?.tag ? { ...answer, experiment: variant.tag } : answer;
}
