import { fnv1a, HashIds } from "../../lib/hash-ids.ts";
import { arrayBytes, stringBytes } from "../../lib/heap-estimate.ts";

/*
 * What a StoreIndex keeps of its documents' ids and text beyond their tokens, by slot, without an object or a
 * Map entry per document: a Map entry cost about 60 bytes and each document's own object, array and sort-text
 * record about 120. Lookups by id or identifier go through hash tables of slots (hash-ids.ts), each candidate
 * checked against the slot's own id or identifiers.
 */

/** Each live document's slot by id, over the index's own ids by slot (which it reads, and never changes). */
export class SlotsById {
  private readonly table = new HashIds();

  constructor(private readonly ids: readonly (string | undefined)[]) {}

  get(id: string): number | undefined {
    const slot = this.table.find(fnv1a(id), (s) => this.ids[s] === id);
    return slot < 0 ? undefined : slot;
  }

  /** Files `slot` under `id`, which ids[slot] holds already. */
  set(id: string, slot: number): void {
    const hash = fnv1a(id);
    if (this.table.find(hash, (s) => s === slot) >= 0) return;
    const before = this.table.find(hash, (s) => s !== slot && this.ids[s] === id);
    if (before >= 0) this.table.remove(hash, before);
    this.table.add(hash, slot);
  }

  /** Takes the slot of `id` out, while ids[slot] still holds it. */
  delete(id: string): void {
    const hash = fnv1a(id);
    const slot = this.table.find(hash, (s) => this.ids[s] === id);
    if (slot >= 0) this.table.remove(hash, slot);
  }

  memoryBytes(): number {
    return this.table.memoryBytes();
  }
}

/** Each slot's identifiers (matched whole, case-insensitive) and sortable text. */
export class HeldTexts {
  /** A slot's identifiers when they are other than just its id (most products: their own id alone). */
  private readonly identifiers: (string[] | undefined)[] = [];
  private readonly byIdentifier = new HashIds();
  /** Sortable text by field, then by slot. */
  private readonly sortTexts = new Map<string, (string | undefined)[]>();

  constructor(private readonly ids: readonly (string | undefined)[]) {}

  /** Holds a slot's identifiers and sortable text (copies: a caller may reuse its objects); ids[slot] holds its id. */
  set(slot: number, identifiers: readonly string[], sortText: Readonly<Record<string, string>>): void {
    const own = identifiers.length === 1 && identifiers[0] === this.ids[slot];
    while (this.identifiers.length <= slot) this.identifiers.push(undefined);
    this.identifiers[slot] = own ? undefined : [...identifiers];
    for (const identifier of identifiers) {
      const hash = fnv1a(identifier.toLowerCase());
      if (this.byIdentifier.find(hash, (s) => s === slot) < 0) this.byIdentifier.add(hash, slot);
    }
    for (const field in sortText) if (!this.sortTexts.has(field)) this.sortTexts.set(field, []);
    for (const [field, texts] of this.sortTexts) {
      while (texts.length <= slot) texts.push(undefined);
      texts[slot] = sortText[field];
    }
  }

  /** Takes a slot's identifiers and sortable text out, while ids[slot] still holds its id. */
  clear(slot: number): void {
    for (const identifier of this.identifiersOf(slot)) this.byIdentifier.remove(fnv1a(identifier.toLowerCase()), slot);
    if (slot < this.identifiers.length) this.identifiers[slot] = undefined;
    for (const texts of this.sortTexts.values()) if (slot < texts.length) texts[slot] = undefined;
  }

  identifiersOf(slot: number): readonly string[] {
    const id = this.ids[slot];
    return this.identifiers[slot] ?? (id === undefined ? [] : [id]);
  }

  /** Slots one of whose identifiers is `key` (lower-cased). */
  slotsOf(key: string): number[] {
    const out: number[] = [];
    this.byIdentifier.forEach(fnv1a(key), (slot) => {
      if (!out.includes(slot) && this.identifiersOf(slot).some((identifier) => identifier.toLowerCase() === key)) out.push(slot);
    });
    return out;
  }

  sortText(slot: number, field: string): string | undefined {
    return this.sortTexts.get(field)?.[slot];
  }

  /** Estimated heap bytes: the identifiers other than ids, the sortable texts and the identifier table. */
  memoryBytes(): number {
    let bytes = arrayBytes(this.identifiers.length) + this.byIdentifier.memoryBytes();
    for (const list of this.identifiers) if (list) bytes += arrayBytes(list.length) + list.reduce((sum, s) => sum + stringBytes(s), 0);
    for (const texts of this.sortTexts.values()) {
      bytes += arrayBytes(texts.length);
      for (const text of texts) if (text !== undefined) bytes += stringBytes(text);
    }
    return bytes;
  }
}
