import type { Database } from "bun:sqlite";
import type { StoredEnrichment } from "./enrichment-repo.ts";

/** A finished stage search does not hold yet; the version, stage and time tell whether a later one replaced it meanwhile. */
export interface UnsyncedEnrichment {
  storeId: string;
  productId: string;
  productVersion: number;
  stage: string;
  updatedAt: number;
}

/** What search reads of product_enrichment: the extracted attributes, and which results it has yet to apply. */
export class EnrichedSearchRepo {
  constructor(private readonly db: Database) {}

  /** What the stages found of those of `ids` that have been enriched: attributes (value keys) and image colours. */
  resultsOf(storeId: string, ids: readonly string[]): Map<string, Pick<StoredEnrichment, "attributes" | "colours">> {
    const rows = this.db
      .query("SELECT product_id AS id, attributes, colours FROM product_enrichment WHERE store_id = ? AND product_id IN (SELECT value FROM json_each(?))")
      .all(storeId, JSON.stringify(ids)) as { id: string; attributes: string; colours: string | null }[];
    return new Map(rows.map((r) => [r.id, { attributes: JSON.parse(r.attributes), colours: r.colours ? JSON.parse(r.colours) : null }]));
  }

  unsynced(limit: number): UnsyncedEnrichment[] {
    return this.db
      .query("SELECT store_id AS storeId, product_id AS productId, product_version AS productVersion, stage, updated_at AS updatedAt FROM product_enrichment WHERE search_synced = 0 ORDER BY updated_at LIMIT ?")
      .all(limit) as UnsyncedEnrichment[];
  }

  /** Marks results applied, unless a newer stage result replaced one since it was read. */
  markSynced(rows: readonly UnsyncedEnrichment[]): void {
    const mark = this.db.query(
      "UPDATE product_enrichment SET search_synced = 1 WHERE store_id = ? AND product_id = ? AND product_version = ? AND stage = ? AND updated_at = ?",
    );
    this.db.transaction(() => rows.forEach((r) => mark.run(r.storeId, r.productId, r.productVersion, r.stage, r.updatedAt)))();
  }
}
