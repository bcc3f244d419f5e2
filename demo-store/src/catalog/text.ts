/* Text normalisation shared by the sources. */

/** Collapses runs of spaces/tabs to one space and trims; keeps single newlines as paragraph breaks. */
export function cleanText(s: string): string {
  return s
    .replace(/\r\n?/g, "\n")
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, " ")
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .filter((line, i, lines) => line !== "" || (i > 0 && lines[i - 1] !== ""))
    .join("\n")
    .trim();
}

/** One line, single spaces: for names, brands and other labels. */
export function cleanLabel(s: string): string {
  return s.replace(/[\s\u0000-\u001f\u007f\u00a0]+/g, " ").trim();
}

/** Lowercase ASCII slug with single hyphens ("Navy Blue" -> "navy-blue", "Black & Grey" -> "black-grey"). */
export function slugify(s: string): string {
  // Decomposing accents is only needed for non-ASCII text, and it is the slow step.
  const ascii = /^[\x00-\x7f]*$/.test(s) ? s : s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  return ascii
    .toLowerCase()
    .replace(/&/g, " ")
    .replace(/'/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

const SMALL_WORDS = new Set(["a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with"]);
// Units and similar tokens that read wrong when capitalised ("10 Ml").
const LOWER_TOKENS = new Set(["ml", "g", "gm", "gms", "kg", "cm", "mm", "l", "mah", "w", "x"]);

/**
 * Title case for the all-lowercase Flipkart text. Words that already carry capitals are kept as they are,
 * so an embedded brand spelling survives.
 */
export function titleCase(s: string): string {
  const words = cleanLabel(s).split(" ");
  return words
    .map((w, i) => {
      if (w === "" || /[A-Z]/.test(w)) return w;
      if (i > 0 && (SMALL_WORDS.has(w) || LOWER_TOKENS.has(w))) return w;
      // Capitalise the first letter of each hyphen/slash part: "t-shirt" -> "T-Shirt", "men's" -> "Men's".
      return w.replace(/(^|[-/(])([a-z])/g, (_m, pre: string, ch: string) => pre + ch.toUpperCase());
    })
    .join(" ");
}
