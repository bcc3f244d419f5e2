import type { EmbeddingsSettings } from "../../config.ts";

/*
 * A client of an OpenAI-compatible embeddings endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, LocalAI, text-
 * embeddings-inference...): POST `{ model, input: [texts], dimensions? }` answers `{ data: [{ embedding, index }] }`.
 * Everything it answers is checked before use: the count, every vector's length and numbers, the size read.
 */

/** Texts per request: OpenAI takes up to 2048 inputs; smaller requests fail and retry cheaper. */
export const TEXTS_PER_REQUEST = 64;
/** Characters of one text sent: far under any model's input limit, and all a product's gist needs. */
export const MAX_TEXT_CHARS = 2000;
/** Longest vector accepted (the largest common models give 3072 or 4096). */
const MAX_DIMENSIONS = 8192;
/** An answer's size is bounded by what its vectors can take as JSON numbers, with room for an envelope. */
const MAX_CHARS_PER_NUMBER = 32;

/** The endpoint failed or answered something that is not embeddings: hybrid search does without them. */
export class EmbeddingsUnavailableError extends Error {
  override name = "EmbeddingsUnavailableError";
}

export class EmbeddingsClient {
  constructor(
    private readonly settings: EmbeddingsSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** The model and length the vectors are made with: a change of either makes every product's vector again. */
  get modelKey(): string {
    return `${this.settings.model}/${this.settings.dimensions ?? "native"}`;
  }

  /** One vector per text, in order, asked in requests of TEXTS_PER_REQUEST; `timeoutMs` bounds each request. */
  async embed(texts: readonly string[], timeoutMs = this.settings.timeoutMs): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += TEXTS_PER_REQUEST) {
      out.push(
        ...(await this.request(
          texts.slice(i, i + TEXTS_PER_REQUEST).map((t) => t.slice(0, MAX_TEXT_CHARS) || " "),
          timeoutMs,
        )),
      );
    }
    return out;
  }

  private async request(input: string[], timeoutMs: number): Promise<Float32Array[]> {
    const body = { model: this.settings.model, input, ...(this.settings.dimensions ? { dimensions: this.settings.dimensions } : {}) };
    let response: Response;
    try {
      response = await this.fetchImpl(this.settings.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new EmbeddingsUnavailableError(`the embeddings endpoint did not answer: ${(error as Error).message}`);
    }
    const limit = input.length * MAX_DIMENSIONS * MAX_CHARS_PER_NUMBER + 64 * 1024;
    const text = await boundedText(response, limit);
    if (!response.ok)
      throw new EmbeddingsUnavailableError(`the embeddings endpoint answered HTTP ${response.status}: ${text.slice(0, 200)}`);
    return vectorsOf(text, input.length);
  }
}

/** The body as text, refused past `limit` characters without reading the rest. */
async function boundedText(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw new EmbeddingsUnavailableError(`the embeddings endpoint's answer is ${declared} bytes, over ${limit}`);
  }
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw new EmbeddingsUnavailableError(`the embeddings endpoint's answer broke off: ${(error as Error).message}`);
    }
    if (chunk.done) return text + decoder.decode();
    text += decoder.decode(chunk.value, { stream: true });
    if (text.length > limit) {
      await reader.cancel();
      throw new EmbeddingsUnavailableError(`the embeddings endpoint's answer is over ${limit} characters`);
    }
  }
}

/** The vectors of an answer in input order (by `index` where given), each checked. */
export function vectorsOf(text: string, expected: number): Float32Array[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new EmbeddingsUnavailableError("the embeddings endpoint's answer is not JSON");
  }
  const data = (parsed as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== expected) {
    throw new EmbeddingsUnavailableError(`the embeddings endpoint's answer has no \`data\` list of ${expected} embeddings`);
  }
  const vectors: Float32Array[] = new Array(expected);
  data.forEach((item: unknown, position) => {
    const { embedding, index } = (item ?? {}) as { embedding?: unknown; index?: unknown };
    const at = index === undefined ? position : index;
    if (!Number.isInteger(at) || (at as number) < 0 || (at as number) >= expected || vectors[at as number]) {
      throw new EmbeddingsUnavailableError(`data[${position}].index is not a distinct position below ${expected}`);
    }
    if (
      !Array.isArray(embedding) ||
      embedding.length === 0 ||
      embedding.length > MAX_DIMENSIONS ||
      !embedding.every((n) => typeof n === "number" && Number.isFinite(n))
    ) {
      throw new EmbeddingsUnavailableError(`data[${position}].embedding is not a list of 1 to ${MAX_DIMENSIONS} numbers`);
    }
    vectors[at as number] = Float32Array.from(embedding as number[]);
  });
  if (vectors.some((v) => v.length !== vectors[0]!.length))
    throw new EmbeddingsUnavailableError("the embeddings endpoint's vectors differ in length");
  return vectors;
}
