/*
 * Descriptive attributes read from real text (names, descriptions, specifications): pattern, fit, sleeve,
 * neck, rise and material. They feed `features` (human-readable) and `tags` (prefix:value), so both stay
 * grounded in the data rather than invented.
 */

import { slugify } from "./text.ts";

export interface Descriptor {
  /** Tag prefix: "pattern", "fit", "sleeve", "neck", "rise", "material". */
  kind: string;
  /** Display form, e.g. "Slim Fit", "Cotton". */
  label: string;
}

const NAME_DESCRIPTORS: ReadonlyArray<readonly [RegExp, string, string]> = [
  [/\bsolid\b/i, "pattern", "Solid"],
  [/\bprinted\b|\bprint\b/i, "pattern", "Printed"],
  [/\bstriped\b|\bstripes\b/i, "pattern", "Striped"],
  [/\bchecked\b|\bchecks?\b|\bcheckered\b/i, "pattern", "Checked"],
  [/\bself[- ]design\b/i, "pattern", "Self Design"],
  [/\bwoven[- ]design\b/i, "pattern", "Woven Design"],
  [/\bembroidered\b/i, "pattern", "Embroidered"],
  [/\bcolou?r-?blocked\b/i, "pattern", "Colourblocked"],
  [/\bfloral\b/i, "pattern", "Floral"],
  [/\btextured\b/i, "pattern", "Textured"],
  [/\bembellished\b/i, "pattern", "Embellished"],
  [/\bsequinned\b|\bsequined\b/i, "pattern", "Sequinned"],
  [/\bcamouflage\b/i, "pattern", "Camouflage"],
  [/\bpolka[- ]dots?\b/i, "pattern", "Polka Dot"],
  [/\bgeometric\b/i, "pattern", "Geometric"],
  [/\btie (?:&|and) dye\b|\btie-dye\b/i, "pattern", "Tie and Dye"],
  [/\bsuper skinny fit\b/i, "fit", "Super Skinny Fit"],
  [/(?<!super )\bskinny fit\b/i, "fit", "Skinny Fit"],
  [/\bslim fit\b/i, "fit", "Slim Fit"],
  [/\bregular fit\b/i, "fit", "Regular Fit"],
  [/\btapered fit\b/i, "fit", "Tapered Fit"],
  [/\brelaxed fit\b/i, "fit", "Relaxed Fit"],
  [/\bstraight fit\b/i, "fit", "Straight Fit"],
  [/\bloose fit\b/i, "fit", "Loose Fit"],
  [/\btailored fit\b/i, "fit", "Tailored Fit"],
  [/\bcomfort fit\b/i, "fit", "Comfort Fit"],
  [/\bbootcut\b|\bboot[- ]cut\b/i, "fit", "Bootcut"],
  [/\bfull sleeves?\b|\blong sleeves?\b/i, "sleeve", "Long Sleeves"],
  [/\bshort sleeves?\b|\bhalf sleeves?\b/i, "sleeve", "Short Sleeves"],
  [/\bsleeveless\b/i, "sleeve", "Sleeveless"],
  [/\bthree-quarter sleeves?\b|\b3\/4th? sleeves?\b/i, "sleeve", "Three-Quarter Sleeves"],
  [/\bround neck\b|\bcrew neck\b|\bcrewneck\b/i, "neck", "Round Neck"],
  [/\bv-neck\b|\bv neck\b/i, "neck", "V-Neck"],
  [/\bpolo collar\b/i, "neck", "Polo Collar"],
  [/\bmandarin collar\b/i, "neck", "Mandarin Collar"],
  [/\bspread collar\b/i, "neck", "Spread Collar"],
  [/\bhooded\b|\bhoodie\b/i, "neck", "Hooded"],
  [/\bhigh neck\b|\bturtle neck\b/i, "neck", "High Neck"],
  [/\bmid-rise\b|\bmid rise\b/i, "rise", "Mid-Rise"],
  [/\bhigh-rise\b|\bhigh rise\b/i, "rise", "High-Rise"],
  [/\blow-rise\b|\blow rise\b/i, "rise", "Low-Rise"],
];

// Order matters: the more specific spelling first ("pure cotton" is cotton; "stainless steel" is steel).
const MATERIALS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bcotton\b|\bkhadi\b|\bcotton[- ]blend\b/i, "Cotton"],
  [/\blinen\b/i, "Linen"],
  [/\bdenim\b/i, "Denim"],
  [/\bpoly(?:ester|ster)\b|\bpolycotton\b|\bpoly cotton\b/i, "Polyester"],
  [/\bviscose\b|\brayon\b|\bmodal\b/i, "Viscose"],
  [/\bsilk\b|\bchanderi\b|\bbanarasi\b|\bkanjeevaram\b/i, "Silk"],
  [/\bwool(?:len|en)?\b|\bcashmere\b|\bmerino\b/i, "Wool"],
  [/\bgenuine leather\b|\bnappa leather\b|(?<!(?:synthetic|artificial|faux|pu|patent) )\bleather\b/i, "Leather"],
  [/\bsynthetic leather\b|\bartificial leather\b|\bfaux leather\b|\bpu\b|\bleatherette\b/i, "Faux Leather"],
  [/\bsuede\b|\bnubuck\b/i, "Suede"],
  [/\bnylon\b|\bpolyamide\b/i, "Nylon"],
  [/\blycra\b|\bspandex\b|\belastane\b/i, "Elastane"],
  [/\bchiffon\b/i, "Chiffon"],
  [/\bgeorgette\b|\bgorgette\b/i, "Georgette"],
  [/\bcrepe\b|\bcrape\b/i, "Crepe"],
  [/\bsatin\b/i, "Satin"],
  [/\bvelvet\b/i, "Velvet"],
  [/\bjute\b/i, "Jute"],
  [/\bcanvas\b/i, "Canvas"],
  [/\bfleece\b/i, "Fleece"],
  [/\bacrylic\b/i, "Acrylic"],
  [/\bmesh\b/i, "Mesh"],
  [/\bcorduroy\b/i, "Corduroy"],
  [/\bceramic\b|\bporcelain\b|\bstoneware\b/i, "Ceramic"],
  [/\bbrass\b/i, "Brass"],
  [/\bsterling silver\b|\b92\.5\b/i, "Sterling Silver"],
  [/\bstainless steel\b/i, "Stainless Steel"],
  [/\bwood(?:en)?\b|\bmdf\b/i, "Wood"],
  [/\bglass\b/i, "Glass"],
  [/\bplastic\b|\bpvc\b|\beva\b/i, "Plastic"],
  [/\brubber\b/i, "Rubber"],
];

// One pass to rule out texts that name no material at all (most names), before the per-material tests.
const ANY_MATERIAL = new RegExp(MATERIALS.map(([re]) => `(?:${re.source})`).join("|"), "i");
const ANY_DESCRIPTOR = new RegExp(NAME_DESCRIPTORS.map(([re]) => `(?:${re.source})`).join("|"), "i");

/** Pattern, fit, sleeve, neck and rise named in a product name or description line (first of each kind). */
export function descriptorsIn(text: string): Descriptor[] {
  const out: Descriptor[] = [];
  if (!ANY_DESCRIPTOR.test(text)) return out;
  const seen = new Set<string>();
  for (const [re, kind, label] of NAME_DESCRIPTORS) {
    if (seen.has(kind) && kind !== "pattern") continue;
    if (re.test(text)) {
      seen.add(kind);
      out.push({ kind, label });
    }
  }
  return out;
}

/** Materials named in a text, in vocabulary order, at most `max`. */
export function materialsIn(text: string, max = 3): string[] {
  const out: string[] = [];
  if (!ANY_MATERIAL.test(text)) return out;
  for (const [re, label] of MATERIALS) {
    if (out.length >= max) break;
    if (re.test(text)) out.push(label);
  }
  return out;
}

export function descriptorTags(ds: readonly Descriptor[]): string[] {
  return ds.map((d) => `${d.kind}:${slugify(d.label.replace(/ Fit$/, ""))}`);
}

/**
 * Myntra descriptions are bullet lists whose line breaks were lost in scraping ("...TSA lockOne handle...").
 * Restores a line break where a lowercase word runs straight into a capitalised one or a sentence ends
 * without a space; no other character of the text changes.
 */
export function restoreLineBreaks(text: string): string {
  return text.replace(/\b([a-z][a-z0-9'’-]*[a-z])(?=[A-Z][a-z]|[A-Z]{2,}\b)/g, "$1\n").replace(/([a-z]{2}[.!?])(?=[A-Z])/g, "$1\n");
}

/**
 * Short descriptive phrases of a Myntra-style description: "has a spread collar, long sleeves, curved hem"
 * -> ["Spread collar", "Long sleeves", "Curved hem"], plus "Key: value" lines such as "Warranty: 5 years".
 */
export function descriptionPhrases(description: string, max = 16): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (p: string) => {
    const phrase = p.replace(/^[\s,.;:-]+|[\s,.;:-]+$/g, "");
    if (phrase.length < 3 || phrase.length > 80) return;
    const key = phrase.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    out.push(phrase.charAt(0).toUpperCase() + phrase.slice(1));
  };
  for (const line of description.split("\n")) {
    if (out.length >= max) break;
    const kv = /^([A-Za-z][A-Za-z /&-]{1,30}):\s*(.{1,60})$/.exec(line.trim());
    if (kv) {
      add(`${kv[1]!.trim()}: ${kv[2]!.trim()}`);
      continue;
    }
    for (const part of line.split(/,\s*|;\s*/)) {
      const p = part
        .trim()
        .replace(/^(?:and\s+)?(?:has\s+(?:an?\s+)?|with\s+(?:an?\s+)?|an?\s+)/i, "")
        .replace(/^and\s+/i, "");
      const words = p.split(/\s+/).length;
      // Long runs are sentences of marketing copy, not features.
      if (words >= 1 && words <= 6 && !/[.!?]/.test(p)) add(p);
      if (out.length >= max) break;
    }
  }
  return out;
}

/** Fit and rise descriptors as fit-information lines. */
export function fitLines(ds: readonly Descriptor[]): string[] {
  return ds.filter((d) => d.kind === "fit" || d.kind === "rise").map((d) => d.label);
}
