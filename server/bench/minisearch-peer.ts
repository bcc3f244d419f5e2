import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { tempDir } from "../test/support/test-server.ts";

/**
 * Runs `use` against the MiniSearch peer (minisearch-peer-server.ts) serving these products in a child process of
 * its own, given its search URL and process id; the process and its files are gone when `use` settles.
 */
export async function withMiniSearchPeer<T>(products: readonly Product[], use: (searchUrl: string, pid: number) => Promise<T>): Promise<T> {
  const dir = tempDir("sfs-bench-peer-");
  const file = join(dir, "products.json");
  await Bun.write(file, JSON.stringify(products));
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "minisearch-peer-server.ts"), file], {
    stdout: "pipe",
    stderr: "inherit",
  });
  try {
    const reader = proc.stdout.getReader();
    let out = "";
    while (!/listening \d+/.test(out)) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the MiniSearch peer server ended before listening");
      out += new TextDecoder().decode(value);
    }
    // Keep its pipe drained so its output can never block it.
    void (async () => {
      while (!(await reader.read()).done);
    })().catch(() => {});
    return await use(`http://127.0.0.1:${out.match(/listening (\d+)/)![1]}/search`, proc.pid);
  } finally {
    proc.kill();
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
