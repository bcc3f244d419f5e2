import type { Subprocess } from "bun";
import { join } from "node:path";
import { UNLIMITED } from "./test-server.ts";

/* The server as a separate process (`bun server/src/main.ts`), for tests that kill it or check its exit. */

export const MAIN = join(import.meta.dir, "../../src/main.ts");

export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

export const DEMO_KEYS = {
  DEMO_STORE_ID: "crash-store",
  DEMO_ADMIN_KEY: "sk_admin_test_0123456789abcdef",
  DEMO_SEARCH_KEY: "pk_search_test_0123456789abcdef",
  DEMO_ANALYTICS_KEY: "pk_analytics_test_0123456789abcdef",
};

export interface ChildServer {
  url: string;
  proc: Subprocess;
}

export async function spawnServer(env: Record<string, string>, timeoutMs = 15_000): Promise<ChildServer> {
  const port = freePort();
  const proc = Bun.spawn([process.execPath, MAIN], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "warn", ...UNLIMITED, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url + "/health")).ok) return { url, proc };
    } catch {
      // not listening yet
    }
    if (proc.exitCode !== null)
      throw new Error(`server exited with ${proc.exitCode}: ${await new Response(proc.stderr as ReadableStream).text()}`);
    await Bun.sleep(50);
  }
  proc.kill(9);
  throw new Error("server did not start in time");
}

/** spawnServer with the child's output read and dropped, so it never blocks on a full pipe. */
export async function spawnDrainedServer(env: Record<string, string>, timeoutMs?: number): Promise<ChildServer> {
  const server = await spawnServer(env, timeoutMs);
  for (const stream of [server.proc.stdout, server.proc.stderr]) {
    if (stream && typeof stream !== "number") void new Response(stream as ReadableStream).text().catch(() => "");
  }
  return server;
}
