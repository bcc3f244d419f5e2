import { EngineTransientError } from "../errors.ts";

/*
 * The start-up check: GET /health on every node (it needs no API key), so a deployment learns at once which
 * node is unreachable, by name, instead of from the first failed search. Serving goes on while at least one
 * node answers; the client's retries and health tracking route around the others.
 */

export interface NodeHealth {
  node: string;
  ok: boolean;
  /** Why the node is not healthy, e.g. "connect ECONNREFUSED" or "HTTP 503 {...}". */
  problem?: string;
}

export async function checkNodes(nodes: readonly string[], fetchImpl: typeof fetch, timeoutMs: number): Promise<NodeHealth[]> {
  return Promise.all(
    nodes.map(async (node): Promise<NodeHealth> => {
      try {
        const response = await fetchImpl(`${node}/health`, { signal: AbortSignal.timeout(timeoutMs) });
        const body = await response.text();
        let ok = false;
        try {
          ok = response.ok && (JSON.parse(body) as { ok?: unknown }).ok === true;
        } catch {
          ok = false;
        }
        return ok ? { node, ok } : { node, ok, problem: `HTTP ${response.status} ${body.slice(0, 200)}`.trim() };
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        return { node, ok: false, problem: [cause, (error as Error).message].filter(Boolean).join(" ") };
      }
    }),
  );
}

export function describeUnhealthy(health: readonly NodeHealth[]): string[] {
  return health.filter((h) => !h.ok).map((h) => `Typesense node ${h.node} is unreachable: ${h.problem}`);
}

/** Thrown by start-up when no node answers: one line naming every node and its problem. */
export class TypesenseUnreachableError extends EngineTransientError {}

export function assertReachable(health: readonly NodeHealth[]): void {
  if (health.some((h) => h.ok)) return;
  throw new TypesenseUnreachableError(describeUnhealthy(health).join("; "));
}
