import { KEY_KINDS, type KeyKind, type StoresRepository } from "./storage/stores-repository.ts";
import { ValidationError } from "../../errors.ts";
import { generateApiKey, hashApiKey } from "./api-keys.ts";

/* Creating stores and issuing keys: shared by the stores CLI, the demo start-up and the tests. */

export const STORE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function assertStoreId(storeId: string): void {
  if (!STORE_ID_PATTERN.test(storeId)) {
    throw new ValidationError("A store id is 1 to 64 letters, digits, '-' or '_', starting with a letter or digit", [
      { path: "storeId", problem: `"${storeId}" does not match ${STORE_ID_PATTERN}` },
    ]);
  }
}

export function assertKeyKind(kind: string): asserts kind is KeyKind {
  if (!KEY_KINDS.includes(kind as KeyKind)) {
    throw new ValidationError(`Unknown key kind "${kind}"`, [{ path: "kind", problem: `use one of ${KEY_KINDS.join(", ")}` }]);
  }
}

export type StoreKeys = Record<KeyKind, string>;

export class StoreAdmin {
  constructor(
    private readonly stores: StoresRepository,
    private readonly now: () => number,
  ) {}

  /** Creates the store and returns its three new keys, shown only this once. Null if the store exists. */
  async create(storeId: string): Promise<StoreKeys | null> {
    assertStoreId(storeId);
    const now = this.now();
    if (!(await this.stores.create(storeId, now))) return null;
    const keys = {} as StoreKeys;
    for (const kind of KEY_KINDS) {
      keys[kind] = generateApiKey(kind);
      await this.stores.replaceKey(storeId, kind, hashApiKey(keys[kind]), now, now);
    }
    return keys;
  }

  /** Issues a new key; the old one keeps working for `graceMs` so a store can roll its deployments over. */
  async rotate(storeId: string, kind: KeyKind, graceMs: number): Promise<string> {
    if (!(await this.stores.get(storeId)))
      throw new ValidationError(`No store "${storeId}"`, [{ path: "storeId", problem: "unknown store" }]);
    const key = generateApiKey(kind);
    const now = this.now();
    await this.stores.replaceKey(storeId, kind, hashApiKey(key), now, now + graceMs);
    return key;
  }

  /**
   * Makes the store exist with these keys (idempotent); used for DEMO_* settings. A configured key the store has
   * never had replaces the current key of its kind at once (changing the setting rotates the key). A key the store
   * had and that was retired since (rotated or revoked with the stores CLI) stays retired: a stale setting never
   * brings it back. Returns the kinds whose configured key is retired, so the caller can say the setting is stale.
   */
  async ensure(storeId: string, keys: StoreKeys): Promise<KeyKind[]> {
    assertStoreId(storeId);
    const now = this.now();
    await this.stores.create(storeId, now);
    const retired: KeyKind[] = [];
    for (const kind of KEY_KINDS) {
      const hash = Buffer.from(hashApiKey(keys[kind]));
      const same = (stored: Uint8Array) => hash.equals(Buffer.from(stored));
      if (!(await this.stores.issuedKeyHashes(storeId, kind)).some(same)) await this.stores.replaceKey(storeId, kind, hash, now, now);
      else if (!(await this.stores.activeKeys(storeId, now)).some((k) => k.kind === kind && same(k.keyHash))) retired.push(kind);
    }
    return retired;
  }

  delete(storeId: string): Promise<boolean> {
    return this.stores.delete(storeId);
  }

  list() {
    return this.stores.list();
  }
}
