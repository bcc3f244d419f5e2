import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateApiKey } from "../../server/src/modules/stores/api-keys.ts";
import type { DemoStoreKeys } from "../../server/src/config.ts";

/*
 * The demo store's keys. The server keeps only hashes, so to print the keys on every `npm start` the demo keeps
 * them in its data directory (mode 0600). Only the demo does this; real stores get keys from the stores CLI.
 */
export function loadOrCreateDemoKeys(dataDir: string, configured: DemoStoreKeys | null): DemoStoreKeys {
  if (configured) return configured;
  const file = join(dataDir, "demo-store-keys.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as DemoStoreKeys;
  const keys: DemoStoreKeys = {
    storeId: "demo",
    adminKey: generateApiKey("admin"),
    searchKey: generateApiKey("search"),
    analyticsKey: generateApiKey("analytics"),
  };
  writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}
