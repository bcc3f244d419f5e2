import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { ConfigError, loadConfig } from "../src/config.ts";
import { spawnServer } from "./support/child-server.ts";

/* HEAP_GROWTH: read like every setting, and handed to the runtime by the server restarting itself in place. */

/** The environment the process `pid` runs with now (after any restart in place), as Linux shows it. */
function environmentOf(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return new Map(entries.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
}

const heapOptionsOf = (pid: number) => [...environmentOf(pid)].filter(([name]) => name.startsWith("BUN_JSC_")).sort();

/** The server's environment once it answers, and that it was the process spawned (no child doing the work). */
async function serverEnvironment(env: Record<string, string>): Promise<[string, string][]> {
  const server = await spawnServer(env);
  try {
    return heapOptionsOf(server.proc.pid);
  } finally {
    server.proc.kill();
    await server.proc.exited;
  }
}

describe("HEAP_GROWTH", () => {
  test("defaults to 1.75; 'runtime' leaves the runtime's rule; anything else outside 1.6 to 4 names the setting", () => {
    expect(loadConfig({}).heapGrowth).toBe(1.75);
    expect(loadConfig({ HEAP_GROWTH: " 2.5 " }).heapGrowth).toBe(2.5);
    expect(loadConfig({ HEAP_GROWTH: "runtime" }).heapGrowth).toBeNull();
    for (const bad of ["1.5", "4.1", "twice", "-2", "0"]) {
      expect(() => loadConfig({ HEAP_GROWTH: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ HEAP_GROWTH: bad })).toThrow(
        `Invalid setting HEAP_GROWTH: expected a factor from 1.6 to 4 or "runtime", got "${bad}"`,
      );
    }
  });

  describe.skipIf(process.platform !== "linux")("the server process", () => {
    test("runs with the runtime's heap options of its HEAP_GROWTH, in the process that was started", async () => {
      expect(await serverEnvironment({ HEAP_GROWTH: "2" })).toEqual([
        ["BUN_JSC_heapGrowthMaxIncrease", "1"],
        ["BUN_JSC_heapGrowthSteepnessFactor", "0"],
        ["BUN_JSC_smallHeapGrowthFactor", "2"],
      ]);
    });

    test("with HEAP_GROWTH=runtime, runs with none", async () => {
      expect(await serverEnvironment({ HEAP_GROWTH: "runtime" })).toEqual([]);
    });

    test("keeps an option the operator set, and adds none beside it", async () => {
      expect(await serverEnvironment({ BUN_JSC_heapGrowthMaxIncrease: "0.9" })).toEqual([["BUN_JSC_heapGrowthMaxIncrease", "0.9"]]);
    });
  });
});
