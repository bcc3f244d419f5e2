import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UsearchVectors } from "../src/engine/sqlite/usearch-vectors.ts";
import { TypesenseVectors } from "../src/engine/typesense/typesense-vectors.ts";
import { describeVectorConformance } from "../src/engine/vectors/vector-conformance.ts";
import { DocumentedCluster } from "./fixtures/typesense/documented-cluster.ts";
import { API_KEY, NODES } from "./fixtures/typesense/mock-cluster.ts";

/*
 * The shared VectorIndex conformance suite against both adapters: usearch over SQLite files in a temp dir (the
 * embedded engine's), and Typesense's vector search over the documented-behaviour stand-in.
 */

describeVectorConformance("usearch (embedded)", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "vectors-"));
  const open = () => new UsearchVectors({ dataDir, synchronous: "NORMAL" });
  const index = open();
  return {
    index,
    reopen: async () => open(),
    cleanup: async () => {
      await index.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

const cluster = new DocumentedCluster();
beforeAll(() => cluster.listen());
afterAll(() => cluster.close());

describeVectorConformance("Typesense (documented-behaviour stand-in)", async () => {
  const open = () => new TypesenseVectors({ nodes: NODES, apiKey: API_KEY, randomizeNodes: false, clientLogLevel: "silent" });
  const index = open();
  return { index, reopen: async () => open(), cleanup: () => index.close() };
});

describe("usearch's graph beside the file", () => {
  const v = (...values: number[]) => Float32Array.from(values);
  const vectors = Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, hash: "h", vector: v(Math.cos(i / 7), Math.sin(i / 7), i % 3, 1) }));

  test("is saved at close and loaded by the next start; writes after a save (a crash) rebuild it from the rows", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "vectors-graph-"));
    try {
      const first = new UsearchVectors({ dataDir, synchronous: "NORMAL" });
      await first.put("s", vectors);
      const answer = (await first.nearest("s", vectors[5]!.vector, 3)).map((n) => n.id);
      await first.close();
      expect(existsSync(join(dataDir, "vectors", "s.usearch"))).toBe(true);

      const second = new UsearchVectors({ dataDir, synchronous: "NORMAL" });
      expect((await second.nearest("s", vectors[5]!.vector, 3)).map((n) => n.id)).toEqual(answer);
      // Written, then gone without a close: the saved graph is older than the rows.
      await second.remove("s", ["p5"]);
      await second.put("s", [{ id: "new", hash: "h", vector: vectors[5]!.vector }]);

      const third = new UsearchVectors({ dataDir, synchronous: "NORMAL" });
      const found = (await third.nearest("s", vectors[5]!.vector, 3)).map((n) => n.id);
      expect(found[0]).toBe("new");
      expect(found).not.toContain("p5");
      await third.close();
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
