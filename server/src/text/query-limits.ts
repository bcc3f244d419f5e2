/*
 * How much of a query is worth work, counted after case and accent folding: one typed character can fold to
 * 18 letters and spaces (U+FDFA), so a 512-character query can hold thousands of words. Both engines and the
 * typeahead read their limits here, so a query costs the same bounded work wherever it runs.
 */

/** Words matched per query; later words are ignored (shoppers type a few words; a pasted paragraph still gets an answer). */
export const MAX_QUERY_WORDS = 16;

/**
 * Longest word (in folded characters) given typo corrections and prefix completion; longer words match exactly
 * only. The look-alikes of a word are found through its deletions, whose number grows with its length squared.
 */
export const MAX_FUZZY_LETTERS = 32;

/** Pieces of a joined compound ("t-shirt", "off-the-shoulder"); a longer chain of pieces is read as separate words. */
export const MAX_COMPOUND_PARTS = 6;

/** Whether a word is short enough for typo corrections and prefix completion. */
export const fuzzyAllowed = (word: string): boolean => word.length <= MAX_FUZZY_LETTERS;

/**
 * Alternatives (a store's synonyms) one query may carry, over all its words, and the most words one may have;
 * the rest are left out. A word can be in thousands of synonym sets, and each alternative costs the embedded
 * engine a clause term and Typesense a filter condition per searchable field.
 */
export const MAX_QUERY_ALTERNATIVES = 32;
export const MAX_ALTERNATIVE_WORDS = 6;
