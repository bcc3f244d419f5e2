/*
 * A stand-in for an OpenAI-compatible embeddings endpoint (POST /v1/embeddings, `{ model, input }` answers
 * `{ object: "list", data: [{ object: "embedding", index, embedding }], model, usage }`), served on loopback. Its
 * "model" is a small concept table, so which products are near a query is obvious to a reader: each word of a
 * concept adds to that concept's dimension, any other word a little to one of the rest by its hash. It counts what
 * it was asked and can be told to fail or to answer nonsense.
 */

export const STAND_IN_KEY = "stand-in-embeddings-key";
export const STAND_IN_MODEL = "concepts-16";

const CONCEPTS: readonly (readonly string[])[] = [
  ["shoe", "shoes", "sneaker", "sneakers", "trainer", "trainers", "footwear", "boot", "boots", "sandal", "sandals"],
  ["running", "sports", "sport", "gym", "jogging", "athletic"],
  ["dress", "dresses", "gown", "frock", "party"],
  ["watch", "watches", "timepiece", "wristwatch", "chronograph"],
  ["bag", "bags", "handbag", "purse", "tote"],
  ["shirt", "shirts", "tshirt", "tee", "top", "linen"],
  ["summer", "floral", "beach", "sunny"],
  ["winter", "wool", "warm", "jacket"],
];
const DIMENSIONS = 16;
const NOISE = 0.2;

function embedding(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const concept = CONCEPTS.findIndex((words) => words.includes(word));
    if (concept >= 0) v[concept]! += 1;
    else v[CONCEPTS.length + ([...word].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % (DIMENSIONS - CONCEPTS.length))]! += NOISE;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export type StandInMode = "ok" | "fail" | "garbage";

export interface EmbeddingsStandIn {
  url: string;
  /** Requests answered, and every text embedded, in order. */
  requests: number;
  inputs: string[];
  mode: StandInMode;
  stop(): void;
}

export function startEmbeddingsStandIn(): EmbeddingsStandIn {
  const state = { requests: 0, inputs: [] as string[], mode: "ok" as StandInMode };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      if (new URL(request.url).pathname !== "/v1/embeddings" || request.method !== "POST")
        return Response.json({ error: { message: "not found" } }, { status: 404 });
      if (request.headers.get("authorization") !== `Bearer ${STAND_IN_KEY}`)
        return Response.json({ error: { message: "bad key" } }, { status: 401 });
      const body = (await request.json()) as { model?: string; input?: string[] };
      if (body.model !== STAND_IN_MODEL || !Array.isArray(body.input))
        return Response.json({ error: { message: "bad request" } }, { status: 400 });
      if (state.mode === "fail") return Response.json({ error: { message: "overloaded" } }, { status: 503 });
      state.requests++;
      if (state.mode === "garbage") return Response.json({ data: body.input.map(() => ({ embedding: "not numbers" })) });
      state.inputs.push(...body.input);
      return Response.json({
        object: "list",
        data: body.input.map((text, index) => ({ object: "embedding", index, embedding: embedding(text) })),
        model: STAND_IN_MODEL,
        usage: { prompt_tokens: 0, total_tokens: 0 },
      });
    },
  });
  return Object.assign(state, { url: `http://127.0.0.1:${server.port}/v1/embeddings`, stop: () => server.stop(true) });
}
