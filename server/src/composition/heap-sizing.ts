/*
 * How far the JavaScript heap grows between full collections. JavaScriptCore lets a heap that is small against
 * the machine's memory grow to up to three times what its last full collection kept (on a machine with 16 GB
 * or more; twice below that), so a server whose catalog keeps gigabytes live could hold as much again in
 * garbage. The runtime reads its options once, when the process starts, so an entry point that finds them
 * unset replaces its process with the same command holding them (same pid: nothing to forward signals to);
 * every thread of the process, the indexing and events threads too, then sizes its heap by them.
 */
import type { Config } from "../config.ts";

/** The runtime's options for a heap that grows to `growth` times what its last full collection kept. */
export function heapOptions(growth: number): Record<string, string> {
  return {
    // 16 GB of memory or more: the factor is 1 + increase · e^(−steepness · heap/RAM). With no steepness it stays
    // `growth` as the heap grows: the runtime's own (2, 1) lets a heap of a third of the machine grow 2.4 times,
    // and a smaller increase alone would fall near 1.5 there, where every collection becomes a full one.
    BUN_JSC_heapGrowthMaxIncrease: String(growth - 1),
    BUN_JSC_heapGrowthSteepnessFactor: "0",
    // Less memory: this factor until the process holds 80% of the machine's memory.
    BUN_JSC_smallHeapGrowthFactor: String(growth),
  };
}

/**
 * Restarts this process in place with the heap options of `config.heapGrowth`, unless it holds any of them
 * already (this restart set them, or the operator did), HEAP_GROWTH is "runtime", or the platform cannot replace a
 * process (Windows). Called by an entry point first, before it opens anything.
 */
export function restartWithHeapSizing(config: Pick<Config, "heapGrowth">): void {
  if (config.heapGrowth === null || typeof process.execve !== "function") return;
  const options = heapOptions(config.heapGrowth);
  if (Object.keys(options).some((name) => process.env[name] !== undefined)) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, ...options });
}
