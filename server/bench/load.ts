import { readdirSync, readFileSync } from "node:fs";
import { measureLatencies } from "./latency-load.ts";

/** Closed-loop load from this process: `concurrency` requests in flight for `seconds`, keep-alive. */
export async function measureRate(
  seconds: number,
  concurrency: number,
  request: (i: number) => Promise<Response>,
): Promise<{ requests: number; perSecond: number; failures: number }> {
  const run = await measureLatencies(seconds, concurrency, (i) => ({ send: () => request(i) }));
  return { requests: run.requests, perSecond: run.perSecond, failures: run.failures };
}

/** Peak resident memory of a process in MiB (Linux VmHWM). */
export async function peakRssMiB(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** User + system CPU time in ms of a process (/proc/<pid>/stat) or of one of its threads (.../task/<tid>/stat). */
export function cpuMsOf(statFile: string): number {
  const fields = readFileSync(statFile, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * CPU ms of a process by kind of thread: its main thread (the server's serving thread), its Worker threads (the
 * indexing and events threads) and the runtime's own (garbage collection, compilers, I/O pool). A thread that
 * ended meanwhile is left out.
 */
export function threadCpuMs(pid: number): { main: number; workers: number; runtime: number } {
  const out = { main: 0, workers: 0, runtime: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = `/proc/${pid}/task/${tid}/stat`;
    let text: string;
    try {
      text = readFileSync(stat, "utf8");
    } catch {
      continue;
    }
    const kind = Number(tid) === pid ? "main" : text.includes("(Worker)") ? "workers" : "runtime";
    out[kind] += cpuMsOf(stat);
  }
  return out;
}

/**
 * A process's main thread's I/O so far (/proc/<pid>/task/<pid>/io): read and write calls and bytes, files and
 * sockets alike. For the server's serving thread: SQLite's page reads and log writes besides the HTTP bodies.
 */
export function mainThreadIo(pid: number): { reads: number; readBytes: number; writes: number; writtenBytes: number } {
  const fields = new Map(
    readFileSync(`/proc/${pid}/task/${pid}/io`, "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(": ") as [string, string]),
  );
  const field = (name: string) => Number(fields.get(name));
  return { reads: field("syscr"), readBytes: field("rchar"), writes: field("syscw"), writtenBytes: field("wchar") };
}

/**
 * Waits until a process has used less than `idleShare` of a core over `windowMs` (its background work done), at
 * most `maxMs`; answers how long that took, or null when it never settled.
 */
export async function settled(pid: number, { windowMs = 500, idleShare = 0.05, maxMs = 60_000 } = {}): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < maxMs) {
    const before = cpuMsOf(`/proc/${pid}/stat`);
    await Bun.sleep(windowMs);
    if (cpuMsOf(`/proc/${pid}/stat`) - before < windowMs * idleShare) return performance.now() - started;
  }
  return null;
}
