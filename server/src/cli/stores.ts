import { assertKeyKind, StoreAdmin } from "../modules/stores/store-admin.ts";
import type { Config } from "../config.ts";
import type { ServiceState } from "../composition/service-state.ts";
import { createEngine, createVectorIndex } from "../engine/create-engine.ts";
import { runCommand } from "./run-command.ts";

/* npm run stores -- create <storeId> | rotate <storeId> <kind> [--grace-hours N] | list | delete <storeId> */

const USAGE = `Usage:
  npm run stores -- create <storeId>                          prints three new keys, once
  npm run stores -- rotate <storeId> <admin|search|analytics> [--grace-hours N]
                                                              new key; the old one works N more hours (default 24)
  npm run stores -- list
  npm run stores -- delete <storeId>                          removes the store and all its data`;

async function stores(args: string[], config: Config, state: ServiceState): Promise<number> {
  const admin = new StoreAdmin(state.stores, Date.now);
  const [command, storeId, kind] = args;
  switch (command) {
    case "create": {
      if (!storeId) break;
      const keys = await admin.create(storeId);
      if (!keys) {
        console.error(`Store "${storeId}" already exists; use rotate to issue new keys.`);
        return 1;
      }
      console.log(`Store ${storeId} created. These keys are shown once; only their hashes are stored.`);
      for (const [k, v] of Object.entries(keys)) console.log(`  ${k.padEnd(10)} ${v}`);
      return 0;
    }
    case "rotate": {
      if (!storeId || !kind) break;
      assertKeyKind(kind);
      const at = args.indexOf("--grace-hours");
      const hours = at >= 0 ? Number(args[at + 1]) : 24;
      if (!Number.isFinite(hours) || hours < 0) {
        console.error("--grace-hours takes a number of hours, 0 or more");
        return 2;
      }
      const key = await admin.rotate(storeId, kind, hours * 3_600_000);
      console.log(`New ${kind} key for ${storeId} (shown once): ${key}`);
      console.log(hours > 0 ? `The previous ${kind} key keeps working for ${hours} hours.` : `The previous ${kind} key no longer works.`);
      return 0;
    }
    case "list":
      for (const s of await admin.list()) console.log(`${s.id}\tcreated ${new Date(s.createdAt).toISOString()}`);
      return 0;
    case "delete": {
      if (!storeId) break;
      const existed = await admin.delete(storeId);
      const engine = createEngine(config);
      await engine.dropStore(storeId);
      await engine.close();
      const vectors = createVectorIndex(config);
      await vectors?.dropStore(storeId);
      await vectors?.close();
      console.log(existed ? `Store ${storeId} deleted, with its catalog, tasks, events and search index.` : `No store "${storeId}".`);
      return 0;
    }
  }
  console.error(USAGE);
  return 2;
}

await runCommand(stores);
