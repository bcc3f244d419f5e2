import type { CatalogRepository } from "./storage/catalog-repository.ts";
import { stableHash } from "../../engine/stable-hash.ts";
import type { Product } from "./product-schema.ts";
import { ShapeCache } from "./shape-cache.ts";
import { toSearchProduct, type CurrencyConversion, type ImageSizeTemplates, type ShapeOptions } from "./search-product.ts";

/*
 * Search products shaped once and kept as JSON (in the product's row on SQLite, in search_products on PostgreSQL),
 * so a results page is stored fragments joined, with no per-hit parse or reshaping. A product is shaped the
 * first time a page shows it, and again after it changes, after its image stage finds its colours, or when the
 * settings it was shaped with (currencyConversion, imageSizes) or toSearchProduct's version change. Indexing
 * does not shape: the image stage replaced that shape for every product with images, most products of a bulk are
 * not shown before they change again, and shaping cost the thread a bulk waits for ~13 µs per product.
 */

/** Raise when toSearchProduct's output changes: stored shapes are then redone as they are read. */
const SHAPE_VERSION = 1;

/** The store settings a Search product depends on (null and absent: none). */
export interface ShapingSettings {
  currencyConversion?: CurrencyConversion | null;
  imageSizes?: ImageSizeTemplates;
}

export interface Shaping {
  key: string;
  options: ShapeOptions;
}

export function shapingFor(storeId: string, settings: ShapingSettings): Shaping {
  const options = { storeId, currencyConversion: settings.currencyConversion ?? undefined, imageSizes: settings.imageSizes };
  return {
    key: String(stableHash(JSON.stringify([SHAPE_VERSION, settings.currencyConversion ?? null, settings.imageSizes ?? null]))),
    options,
  };
}

export const shapeJson = (product: Product, shaping: Shaping, colourValues?: ShapeOptions["colourValues"]): string =>
  JSON.stringify(toSearchProduct(product, colourValues ? { ...shaping.options, colourValues } : shaping.options));

const coloursKey = (colours: ShapeOptions["colourValues"] | undefined): string => (colours ? JSON.stringify([...colours]) : "");

/** Image analysis's colours of products' variations, for those of `ids` it has run for. */
export type ColoursOf = (storeId: string, ids: readonly string[]) => Promise<Map<string, NonNullable<ShapeOptions["colourValues"]>>>;

/** The stored shapes of a catalog, and how to make missing ones. */
export class ShapedProducts {
  /** Shapes shown recently, where the repository counts its shapes' changes (shape-cache.ts). */
  private readonly cache: ShapeCache | null;

  constructor(
    private readonly repo: Pick<CatalogRepository, "shaped" | "putShapes" | "dropShapes" | "states" | "liveDocs" | "shapesEpoch">,
    private readonly coloursOf: ColoursOf = async () => new Map(),
  ) {
    this.cache = repo.shapesEpoch ? new ShapeCache() : null;
  }

  /**
   * The shaped JSON of `ids` in order; a product missing from the catalog (not committed yet, or deleted) is
   * left out. Shapes missing or made under other settings are made from the catalog's documents and stored; their
   * documents and colours are read in one call each, not per product (a round trip each on PostgreSQL).
   */
  async page(storeId: string, settings: ShapingSettings, ids: readonly string[]): Promise<string[]> {
    const shaping = shapingFor(storeId, settings);
    // Read before the shapes: a write after it changes the epoch, so what is kept below is never taken for newer.
    const epoch = this.cache ? await this.repo.shapesEpoch!(storeId) : 0;
    const stored = new Map<string, string>();
    const unknown: string[] = [];
    for (const id of ids) {
      const kept = this.cache?.get(storeId, id, shaping.key, epoch);
      if (kept === undefined) unknown.push(id);
      else stored.set(id, kept);
    }
    if (unknown.length) {
      for (const [id, json] of await this.repo.shaped(storeId, unknown, shaping.key)) {
        stored.set(id, json);
        this.cache?.keep(storeId, id, shaping.key, epoch, json);
      }
    }
    const missing = unknown.filter((id) => !stored.has(id));
    const made = new Map<string, string>();
    if (missing.length) {
      // Versions before documents: a commit between the two reads leaves a version older than its document, and
      // the shape is then not stored (putShapes), rather than stored for a version it was not made from.
      const states = await this.repo.states(storeId, missing);
      const docs = await this.repo.liveDocs(storeId, missing);
      const colours = docs.size ? await this.coloursOf(storeId, [...docs.keys()]) : new Map();
      const versioned: [string, number, string][] = [];
      for (const [id, doc] of docs) {
        const json = shapeJson(JSON.parse(doc) as Product, shaping, colours.get(id));
        made.set(id, json);
        const version = states.get(id)?.version;
        if (version !== undefined) versioned.push([id, version, json]);
      }
      if (versioned.length) {
        await this.repo.putShapes(storeId, shaping.key, versioned);
        // An image stage that committed between the colours' read and the write dropped the shape it would have
        // made stale before this one was stored: read them again, and drop what was made with colours gone since.
        const now = await this.coloursOf(
          storeId,
          versioned.map(([id]) => id),
        );
        const stale = versioned.filter(([id]) => coloursKey(now.get(id)) !== coloursKey(colours.get(id))).map(([id]) => id);
        if (stale.length) await this.repo.dropShapes(storeId, stale);
      }
    }
    return ids.flatMap((id) => stored.get(id) ?? made.get(id) ?? []);
  }
}
