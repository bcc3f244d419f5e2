import { rmSync } from "node:fs";
import { describeEngineConformance } from "../src/engine/conformance.ts";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import { tempDir } from "./support/test-server.ts";

describeEngineConformance("embedded SQLite", async () => {
  const dataDir = tempDir("sfs-engine-");
  const engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
  return {
    engine,
    reopen: async () => new SqliteEngine({ dataDir, synchronous: "NORMAL" }),
    cleanup: async () => {
      await engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
