/* What a store learned of its words' meaning (GET /meaning, POST /meaning/train). */

export type MeaningState =
  | { trained: false }
  | {
      trained: true;
      trainedAt: string;
      /** The model's size: words, products and bytes of vectors. */
      words: number;
      products: number;
      bytes: number;
    };
