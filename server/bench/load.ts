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
