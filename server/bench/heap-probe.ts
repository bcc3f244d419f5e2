/*
 * Preloaded into a bench's server (BUN_OPTIONS="--preload <this file>", HEAP_PROBE_FILE=<path>), never into a
 * served one: on SIGUSR2 the serving thread appends one JSON line to HEAP_PROBE_FILE with its JavaScriptCore heap
 * before and after a full collection, how long the collection took, and the process's threads by name. It tells
 * garbage not yet collected from what stays live at a moment the bench picks (memory-bench.ts --collect-after-load).
 */
import { heapStats } from "bun:jsc";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

const file = process.env.HEAP_PROBE_FILE;

function heap(): { cells: number; capacity: number; outside: number } {
  const stats = heapStats();
  return { cells: stats.heapSize, capacity: stats.heapCapacity, outside: stats.extraMemorySize };
}

/** The process's threads by name, counted: which of the server's worker threads are running at that moment. */
function threadNames(): Record<string, number> {
  const names: Record<string, number> = {};
  for (const task of readdirSync("/proc/self/task")) {
    const name = readFileSync(`/proc/self/task/${task}/comm`, "utf8").trim();
    names[name] = (names[name] ?? 0) + 1;
  }
  return names;
}

if (file && isMainThread) {
  process.on("SIGUSR2", () => {
    // heapStats() counts cells and what they hold outside as of the last collection; the capacity is current.
    const before = heap();
    const started = performance.now();
    Bun.gc(true);
    const ms = performance.now() - started;
    appendFileSync(file, `${JSON.stringify({ before, after: heap(), ms, threads: threadNames() })}\n`);
  });
}
