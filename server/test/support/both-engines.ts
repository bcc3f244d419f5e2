import { DocumentedCluster } from "../fixtures/typesense/documented-cluster.ts";
import { API_KEY } from "../fixtures/typesense/mock-cluster.ts";

/**
 * The engines a suite that must behave alike on both runs on: its name, the server settings that select it (the
 * Typesense stand-in served on loopback from this process), and what stops it after the suite.
 */
export type EngineCase = [name: string, start: () => Promise<Record<string, string>>, stop: () => Promise<void>];

export function bothEngines(): EngineCase[] {
  const cluster = new DocumentedCluster();
  let node: { url: string; stop: () => Promise<void> } | undefined;
  return [
    ["embedded engine", async () => ({}), async () => {}],
    [
      "Typesense stand-in",
      async () => {
        node = cluster.serve();
        return { TYPESENSE_NODES: node.url, TYPESENSE_API_KEY: API_KEY };
      },
      async () => node?.stop(),
    ],
  ];
}
