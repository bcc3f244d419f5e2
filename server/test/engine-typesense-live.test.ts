import { test } from "bun:test";
import { loadConfig } from "../src/config.ts";
import { describeEngineConformance } from "../src/engine/conformance.ts";
import { TypesenseEngine } from "../src/engine/typesense/typesense-engine.ts";
import { TypesenseVectors } from "../src/engine/typesense/typesense-vectors.ts";
import { describeVectorConformance } from "../src/engine/vectors/vector-conformance.ts";

/*
 * The shared conformance suite against a live Typesense server (28.0 or later). No server can be installed
 * where the regular test run happens, so this file only runs when TYPESENSE_NODES is set:
 *
 *   docker run -p 8108:8108 -v /tmp/ts:/data typesense/typesense:29.0 --data-dir /data --api-key=xyz
 *   TYPESENSE_NODES=http://localhost:8108 TYPESENSE_API_KEY=xyz bun test server/test/engine-typesense-live.test.ts
 *
 * It creates and drops the stores "conformance", "conformance-versions" and "conformance-empty", and the vector
 * collections of the stores "vc-main", "vc-replace", "vc-model" and "vc-other" (the VectorIndex conformance suite).
 */

const HOW_TO_RUN = "TYPESENSE_NODES=http://localhost:8108 TYPESENSE_API_KEY=xyz bun test server/test/engine-typesense-live.test.ts";

const settings = process.env.TYPESENSE_NODES
  ? loadConfig({ TYPESENSE_NODES: process.env.TYPESENSE_NODES, TYPESENSE_API_KEY: process.env.TYPESENSE_API_KEY }).typesense
  : null;

if (settings) {
  const make = () => new TypesenseEngine({ ...settings, clientLogLevel: "error" });
  describeEngineConformance(`Typesense (live at ${settings.nodes.join(", ")})`, async () => {
    const engine = make();
    await engine.start();
    return {
      engine,
      // A restart: a new instance rebuilds its caches (field list, typo vocabulary) from the cluster.
      reopen: async () => make(),
      cleanup: async () => engine.close(),
    };
  });
  describeVectorConformance(`Typesense vectors (live at ${settings.nodes.join(", ")})`, async () => {
    const open = () => new TypesenseVectors({ ...settings, clientLogLevel: "error" });
    const index = open();
    return { index, reopen: async () => open(), cleanup: async () => index.dropStore("vc-main") };
  });
} else {
  console.log(`Typesense live conformance skipped (no TYPESENSE_NODES); run it with: ${HOW_TO_RUN}`);
  test.skip(`Typesense live conformance (run with: ${HOW_TO_RUN})`, () => {});
}
