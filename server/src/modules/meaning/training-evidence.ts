/*
 * What learned meaning trains on (semantic-space.ts), as it is gathered (meaning-evidence.ts): documents of weighted
 * words, held as typed arrays with each distinct word once. At 50,000 products, a document per product as arrays of
 * strings and numbers held 33 MiB for 1.2 million tokens of 12,077 words; here a token is a word's number (4 bytes)
 * and its weight (8: an imported query's weight is not a float32's, and the trained space must stay the same).
 */

/** Tokens and documents gathered before the arrays first grow (they double when full). */
const FIRST_TOKENS = 1 << 16;
const FIRST_DOCUMENTS = 1 << 12;

export class TrainingEvidence {
  /** The distinct words, by number. */
  readonly words: string[] = [];
  private readonly numbers = new Map<string, number>();
  /** Each token's word number and weight, document after document. */
  private tokenWords = new Int32Array(FIRST_TOKENS);
  private tokenWeights = new Float64Array(FIRST_TOKENS);
  private tokens = 0;
  /** Where each document's tokens end: document d's are [ends[d - 1] (or 0), ends[d]). */
  private ends = new Int32Array(FIRST_DOCUMENTS);
  private documentCount = 0;
  /** The products' documents, in the order gathered, with their ids. */
  private productDocuments = new Int32Array(FIRST_DOCUMENTS);
  readonly productIds: string[] = [];

  get documents(): number {
    return this.documentCount;
  }

  /** Adds a word to the document being gathered. */
  add(word: string, weight: number): void {
    let number = this.numbers.get(word);
    if (number === undefined) {
      number = this.words.push(word) - 1;
      this.numbers.set(word, number);
    }
    this.push(number, weight);
  }

  /** Adds the tokens of an earlier document (a product's words beside the query that led to it). */
  addDocument(document: number): void {
    for (let t = this.start(document), end = this.ends[document]!; t < end; t++) this.push(this.tokenWords[t]!, this.tokenWeights[t]!);
  }

  /** Ends the document being gathered, a product's when `productId` is given, and answers its number. */
  end(productId?: string): number {
    const document = this.documentCount++;
    this.ends = grown(this.ends, this.documentCount);
    this.ends[document] = this.tokens;
    if (productId !== undefined) {
      this.productDocuments = grown(this.productDocuments, this.productIds.length + 1);
      this.productDocuments[this.productIds.length] = document;
      this.productIds.push(productId);
    }
    return document;
  }

  /** The products' documents, in the order of productIds. */
  products(): Int32Array {
    return this.productDocuments.subarray(0, this.productIds.length);
  }

  /** Calls `each` with every token's word number, weight and document, document by document, `ended` after each. */
  forEachDocument(each: (word: number, weight: number, document: number) => void, ended: (document: number) => void = () => {}): void {
    for (let d = 0, t = 0; d < this.documentCount; d++) {
      for (const end = this.ends[d]!; t < end; t++) each(this.tokenWords[t]!, this.tokenWeights[t]!, d);
      ended(d);
    }
  }

  /** Frees the tokens (a training's later steps need only the matrix made of them); documents and ids stay. */
  releaseTokens(): void {
    this.tokenWords = new Int32Array(0);
    this.tokenWeights = new Float64Array(0);
    this.tokens = 0;
  }

  private start(document: number): number {
    return document === 0 ? 0 : this.ends[document - 1]!;
  }

  private push(word: number, weight: number): void {
    if (this.tokens === this.tokenWords.length) {
      this.tokenWords = grown(this.tokenWords, this.tokens + 1);
      this.tokenWeights = grown(this.tokenWeights, this.tokens + 1);
    }
    this.tokenWords[this.tokens] = word;
    this.tokenWeights[this.tokens++] = weight;
  }
}

/** `array`, or a copy twice its length when it holds fewer than `needed`. */
function grown<T extends Int32Array | Float64Array>(array: T, needed: number): T {
  if (needed <= array.length) return array;
  const copy = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2));
  copy.set(array);
  return copy;
}
