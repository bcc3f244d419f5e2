import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Product } from "@storefront-search/contract";
import type { Bulk } from "./catalog-cache.ts";

/** What the pages embed: the store id and its browser keys (never the admin key). */
export interface StoreEmbed {
  storeId: string;
  searchKey: string;
  analyticsKey: string;
}

export class DemoCatalog {
  private byId = new Map<string, Product>();
  /** How many products the pages will know once start-up has them all; null until start-up knows. */
  private expected: number | null = null;
  /** Products added, or promised by a source read on first need. */
  private known = 0;
  private newest: Product[] = [];
  /** Bulks whose products no page has needed yet: parsing them waits, so it does not compete with indexing. */
  private unread: Bulk[] = [];
  /** Where the whole catalog comes from when it is read back later rather than added bulk by bulk. */
  private source: (() => Bulk[]) | null = null;

  /** Bulk by bulk, as the catalog is converted or read back, so pages show products while the rest is indexed. */
  add(bulk: Bulk): void {
    this.unread.push(bulk);
    this.known += bulk.count;
  }

  /** The whole catalog (`total` products), read when a page first needs it or readAll() runs, whichever comes first. */
  addLater(source: () => Bulk[], total: number): void {
    this.source = source;
    this.expected = this.known = total;
  }

  /** How many products are on their way (bulk by bulk, as the catalog is converted). */
  expect(total: number): void {
    this.expected = total;
  }

  /**
   * While start-up is still bringing the catalog (or does not know yet what it will bring): how far it is. Null
   * once every product is here, so that a product the pages do not know is not in the catalog at all.
   */
  starting(): { loaded: number; total: number | null } | null {
    return this.expected !== null && this.known >= this.expected ? null : { loaded: this.known, total: this.expected };
  }

  private fromSource(): void {
    const source = this.source;
    this.source = null;
    if (source) this.unread.push(...source());
  }

  /** Reads the bulks no page has needed yet, one per turn of the event loop (after indexing, before a shopper asks). */
  async readAll(): Promise<void> {
    this.fromSource();
    while (this.unread.length) {
      this.read(this.unread.shift()!.products);
      await yieldToEventLoop();
    }
  }

  private read(products: Product[]): void {
    for (const p of products) this.byId.set(p.id, p);
    this.newest = [...this.newest, ...products].sort((a, b) => (b.arrivalDateTs ?? 0) - (a.arrivalDateTs ?? 0)).slice(0, 12);
  }

  private current(): this {
    this.fromSource();
    for (const bulk of this.unread.splice(0)) this.read(bulk.products);
    return this;
  }

  get(id: string): Product | undefined {
    return this.current().byId.get(id);
  }

  get size(): number {
    return this.current().byId.size;
  }

  featured(): Product[] {
    return this.current().newest;
  }
}
