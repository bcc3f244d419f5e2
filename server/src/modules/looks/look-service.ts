import type { PinnedLooks } from "@storefront-search/contract";
import { liveProductsIn, productIn, type CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import type { LooksRepository } from "./storage/looks-repository.ts";
import type { StoreRow } from "../stores/storage/stores-repository.ts";
import type { EngineSearchRequest, SearchEngine } from "../../engine/types.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import type { Product } from "../catalog/product-schema.ts";
import { toSearchProduct, type SearchProduct } from "../catalog/search-product.ts";
import { shapingFor } from "../catalog/shaped-products.ts";
import { effectiveSettings } from "../settings/settings-schema.ts";
import { inVariant, tagged, type ShopperVariants } from "../settings/shopper-variant.ts";
import type { ExperimentTag } from "@storefront-search/contract";
import { composeLooks, MAX_LOOKS, type LookPiece } from "./look-composer.ts";
import type { LookEntry, LookIndex } from "./look-index.ts";
import type { LookParams } from "./look-params.ts";
import { occasionNames, seasonNames } from "./look-rules.ts";
import { kindOf } from "./look-slots.ts";
import type { Facts } from "../catalog/taste-facts.ts";
import type { ShopperIds } from "../../http/query-params.ts";

/*
 * GET /ctl: a store's curated looks for the product first, then composed ones (look-composer.ts), up to nine.
 * A look holds the pieces that complete the source, not the source itself: the shopper is already looking at
 * it, and the answer carries it once as `sourceProduct` for the widget to show beside every look. Pieces are
 * kept only where the engine holds them (one ids request), so a look never shows what search would not.
 */

export interface LookProduct extends SearchProduct {
  gender?: string;
  /** The slot the product fills in its look ("bottom", "shoes", …); for the source and pinned pieces, their kind. */
  internalCategory?: string;
}

export interface ExplainedPiece {
  productId: string;
  slot: string;
  score: number;
  composed: number;
  evidence: number;
  parts: { colour: number; occasion: number; season: number; price: number };
  /** Where the shopper's taste applied: what it added to the score (at most TASTE_LIFT) and the values it liked. */
  personalisation?: { boost: number; matched: Record<string, string> };
  why: string;
}

export interface LooksResponse {
  ctlProducts: LookProduct[][];
  sourceProduct: LookProduct;
  /** With explain=true (admin key): per look, whether the store pinned it, and per piece why it is there. */
  explain?: { pinned: boolean; pieces: ExplainedPiece[] }[];
  /** The running experiment whose variant composed the looks. */
  experiment?: ExperimentTag;
}

export interface LookServiceDeps {
  catalog: CatalogRepository;
  engine: SearchEngine;
  /** The store's look index, current. */
  index: (store: StoreRow) => Promise<LookIndex>;
  /** Curated looks and learned pairs. */
  looks: LooksRepository;
  now: () => number;
  /** The shopper's experiment variant: its settings are the store's, its `looks` overrides the composer's (absent: none). */
  variants?: ShopperVariants;
  /** The shopper's taste as a liking of a product's facts (0 to 1); null for a shopper without one. Absent: no personalisation. */
  taste?: (storeId: string, shopper: ShopperIds) => Promise<TasteOf | null>;
}

/** A shopper's liking of a product's facts (0 to 1), and the values of them they like. */
export type TasteOf = (facts: Facts) => { liking: number; matched: Record<string, string> };

interface Look {
  pinned: boolean;
  pieces: (LookPiece | { id: string; slot: string; variationId?: undefined })[];
}

export class LookService {
  constructor(private readonly d: LookServiceDeps) {}

  async looks(asked: StoreRow, p: LookParams): Promise<LooksResponse> {
    const variant = (await this.d.variants?.(asked, p)) ?? null;
    const store = inVariant(asked, variant);
    const composer = variant?.looks ?? {};
    const source = await productIn(this.d.catalog, store.id, p.productId);
    if (!source) throw new NotFoundError(`No product "${p.productId}" in this store`);
    const model = await this.d.index(store);
    const settings = effectiveSettings(store.settings);
    const [curated, evidence, taste] = await Promise.all([
      this.d.looks.pinned(store.id, p.productId),
      composer.shopperEvidence === false ? new Map<string, number>() : this.d.looks.partners(store.id, p.productId),
      settings.personalisation && this.d.taste ? this.d.taste(store.id, p) : null,
    ]);
    const shown = composer.looks ?? MAX_LOOKS;
    const pinned: Look[] = (curated ?? []).slice(0, shown).map((ids) => ({
      pinned: true,
      pieces: ids.map((id) => ({ id, slot: model.get(id)?.kind ?? "pinned" })),
    }));
    const composed = composeLooks(model, p.productId, {
      variationId: p.variantId,
      evidence,
      taken: pinned.map((look) => look.pieces.map((piece) => piece.id)),
      wanted: shown - pinned.length,
      ...(composer.weights ? { weights: composer.weights } : {}),
      ...(taste ? { liking: (entry: LookEntry) => taste(entry.facts).liking } : {}),
    });
    const { looks, products } = await this.live(store.id, [...pinned, ...composed.map((pieces) => ({ pinned: false, pieces }))]);

    const options = { ...shapingFor(store.id, settings).options, withFirstPrice: true };
    const shape = (product: Product, internalCategory: string, variationId?: string): LookProduct => {
      const shaped: LookProduct = toSearchProduct(product, options);
      if (variationId && shaped.colors[variationId]) shaped.defaultColorId = variationId;
      return { ...shaped, ...(product.gender ? { gender: product.gender } : {}), internalCategory };
    };
    const response: LooksResponse = {
      ctlProducts: looks.map((look) => look.pieces.map((piece) => shape(products.get(piece.id)!, piece.slot, piece.variationId))),
      sourceProduct: shape(source, kindOf(source.categories) ?? "product", p.variantId),
    };
    if (p.explain) {
      const sourceEntry = model.get(p.productId);
      response.explain = looks.map((look) => ({
        pinned: look.pinned,
        pieces: look.pieces.map((piece) =>
          "score" in piece ? explained(piece, sourceEntry, model.get(piece.id), taste) : pinnedPiece(piece.id, piece.slot),
        ),
      }));
    }
    return tagged(response, variant);
  }

  /**
   * The looks with only the pieces the engine holds and the catalog has, each read once; a composed look that
   * lost a piece is dropped (it is no longer whole).
   */
  private async live(storeId: string, looks: Look[]): Promise<{ looks: Look[]; products: Map<string, Product> }> {
    const ids = [...new Set(looks.flatMap((look) => look.pieces.map((piece) => piece.id)))];
    if (ids.length === 0) return { looks: [], products: new Map() };
    const result = await this.d.engine.search(storeId, heldPiecesRequest(ids));
    const products = await liveProductsIn(
      this.d.catalog,
      storeId,
      result.hits.map((hit) => hit.id),
    );
    const kept: Look[] = [];
    for (const look of looks) {
      const pieces = look.pieces.filter((piece) => products.has(piece.id));
      if (pieces.length && (look.pinned || pieces.length === look.pieces.length)) kept.push({ ...look, pieces });
    }
    return { looks: kept, products };
  }

  /** The store's curated looks for a product (admin). */
  async getPinned(store: StoreRow, productId: string): Promise<PinnedLooks> {
    const looks = await this.d.looks.pinned(store.id, productId);
    if (!looks) throw new NotFoundError(`No pinned looks for product "${productId}"`);
    return { productId, looks };
  }

  /** Replaces a product's curated looks; every product named must be in the catalog. */
  async putPinned(store: StoreRow, productId: string, looks: string[][]): Promise<PinnedLooks> {
    if (!(await productIn(this.d.catalog, store.id, productId))) throw new NotFoundError(`No product "${productId}" in this store`);
    const known = await this.d.catalog.states(store.id, [...new Set(looks.flat())]);
    const missing = looks.flatMap((look, i) =>
      look.flatMap((id, j) =>
        known.get(id)?.deleted === false ? [] : [{ path: `body.looks[${i}][${j}]`, problem: `no product "${id}" in this store` }],
      ),
    );
    if (missing.length) throw new ValidationError(`Invalid pinned looks: ${missing[0]!.path} ${missing[0]!.problem}`, missing.slice(0, 20));
    await this.d.looks.putPinned(store.id, productId, looks, this.d.now());
    return { productId, looks };
  }

  async deletePinned(store: StoreRow, productId: string): Promise<void> {
    if (!(await this.d.looks.deletePinned(store.id, productId))) throw new NotFoundError(`No pinned looks for product "${productId}"`);
  }
}

/** The engine request that tells which of the looks' pieces the engine holds. */
export function heldPiecesRequest(ids: string[]): EngineSearchRequest {
  return {
    text: "",
    matching: { typos: false, prefixLast: false },
    filters: [{ kind: "ids", ids }],
    facets: [],
    rangeFacets: [],
    sort: [],
    offset: 0,
    limit: ids.length,
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function pinnedPiece(productId: string, slot: string): ExplainedPiece {
  return {
    productId,
    slot,
    score: 1,
    composed: 0,
    evidence: 0,
    parts: { colour: 0, occasion: 0, season: 0, price: 0 },
    why: "pinned by the store",
  };
}

/** A composed piece's score, its parts, and in words why it was chosen for its slot. */
function explained(piece: LookPiece, source: LookEntry | undefined, entry: LookEntry | undefined, taste: TasteOf | null): ExplainedPiece {
  const reasons = [`fills "${piece.slot}"`, `colour: ${piece.colourRelation}`];
  if (source && entry) {
    const said = (names: string[]) => names.join("/") || "not stated";
    reasons.push(`occasion ${said(occasionNames(entry.occasions))} with ${said(occasionNames(source.occasions))}`);
    reasons.push(`season ${said(seasonNames(entry.seasons))} with ${said(seasonNames(source.seasons))}`);
    if (!Number.isNaN(entry.pricePercentile) && !Number.isNaN(source.pricePercentile)) {
      reasons.push(
        `price at percentile ${Math.round(entry.pricePercentile * 100)} of its kind, the source's at ${Math.round(source.pricePercentile * 100)}`,
      );
    }
  }
  if (piece.evidence > 0)
    reasons.push(
      `shoppers paired it with the source (evidence ${round(piece.evidence)}), blended with the composed score ${round(piece.composed)}`,
    );
  if (piece.personal > 0) reasons.push(`the shopper's taste added ${round(piece.personal)}`);
  return {
    productId: piece.id,
    slot: piece.slot,
    score: round(piece.score),
    composed: round(piece.composed),
    evidence: round(piece.evidence),
    parts: { colour: round(piece.colour), occasion: round(piece.occasion), season: round(piece.season), price: round(piece.price) },
    ...(piece.personal > 0 && taste && entry
      ? { personalisation: { boost: round(piece.personal), matched: taste(entry.facts).matched } }
      : {}),
    why: reasons.join("; "),
  };
}
