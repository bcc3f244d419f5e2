import { harmony, MAX_PALETTES, paletteById, relation, storyOf, type Palette, type Relation } from "./colour-harmony.ts";
import { paletteFor, type LookEntry, type LookIndex } from "./look-index.ts";
import { agree, ANY_GENDER, OCCASIONS, occasionFit, occasionsAgree, SEASONS, seasonFit, UNSTATED_FIT } from "./look-rules.ts";
import { LOOK_TEMPLATES, type Slot } from "./look-slots.ts";

/*
 * Composes up to nine looks for a product from its store's catalog. Per slot of each template (look-slots.ts),
 * the candidates are the products of the slot's kinds that are in stock, fit the source's gender and age
 * group, are not of the source's own category, and go with it: season, occasion, price level within
 * PRICE_BAND of its percentile, colour (colour-harmony.ts). Each candidate's composed score c (0 to 1) blends
 * with what shoppers taught (n: pairs bought together, look clicks): s = (n·T + K·c) / (n + K), where T (above
 * any composed score) is what a pair shoppers proved is worth: a little evidence nudges, much of it leads. A
 * taught pair may even break a soft rule (a colour the model would not choose), never the slot or gender rules.
 * A shopper's taste adds at most TASTE_LIFT to a candidate the rules let in (look-service.ts): among pieces that
 * go as well, theirs are chosen; it never lets in a piece the rules keep out.
 *
 * A look is found by beam search over its template's slots: pieces must also go with each other (no clash,
 * at most one loud piece, one gender, seasons that fit, the same season scoring a little more) and agree in
 * occasion: every piece that states one shares one with the others, the source included (a party dress gets
 * party or unstated pieces, never casual flats beside a party clutch). Only when no such look is left does a
 * relaxed pass take pieces whose occasions merely may go together, so a catalog short of agreeing pieces still
 * gets its looks. Looks are found one after another, each penalising pieces and colour stories the earlier ones
 * used, and no piece in more than two looks.
 */

export const MAX_LOOKS = 9;
/** Candidates kept per slot (of neutral colours, and as many of other colours), and partial looks kept per step of the beam. */
const CANDIDATES = 14;
const BEAM = 14;
/** Widest gap of price percentiles between the source and a piece. */
const PRICE_BAND = 0.35;
/** Prior strength of the composed score against shopper evidence, and the score evidence pulls towards. */
const PRIOR_STRENGTH = 3;
const TAUGHT_SCORE = 1.5;
const WEIGHTS: Weights = { colour: 0.4, occasion: 0.25, season: 0.15, price: 0.2 };

/** What each fit weighs in a piece's composed score. */
export interface Weights {
  colour: number;
  occasion: number;
  season: number;
  price: number;
}
/**
 * How a piece's gain weighs going with the pieces already in the look: colour harmony takes up to a fifth off;
 * seasons add or take off around an unstated one's fit (the same season a little more, a neighbour a little less).
 */
const TOGETHER = { colour: 0.2, season: 0.1 } as const;
/** What an optional piece must score to be worth adding. */
const OPTIONAL_BAR = 0.6;
/** Score taken off per earlier look a piece is in, and per earlier look with the same colour story. */
const REUSE_PENALTY = 0.15;
const STORY_PENALTY = 0.2;
const MAX_USES = 2;
/** The most a shopper's liking of a piece (0 to 1) adds to its score. */
export const TASTE_LIFT = 0.1;

export interface PieceScore {
  /** The composed score and its parts, each 0 to 1 (before weights). */
  composed: number;
  colour: number;
  occasion: number;
  season: number;
  price: number;
  /** Shopper evidence for the pair (co-purchases, look clicks) and the blended score. */
  evidence: number;
  score: number;
  /** What the shopper's taste added to the score (TASTE_LIFT × their liking); 0 without a taste. */
  personal: number;
  /** How its colour relates to the source's. */
  colourRelation: Relation;
}

export interface LookPiece extends PieceScore {
  id: string;
  slot: string;
  /** The colour variation shown in the look (the one that goes best). */
  variationId?: string;
}

export interface ComposeOptions {
  variationId?: string;
  /** Shopper evidence per product paired with the source. */
  evidence: ReadonlyMap<string, number>;
  /** Looks already taken (pinned): their pieces count as used. */
  taken: readonly (readonly string[])[];
  /** How many looks to compose. */
  wanted: number;
  /** What each fit weighs (an experiment's variant); scaled to sum to 1, so a composed score stays within 0 to 1. */
  weights?: Weights;
  /** The shopper's liking of a product (0 to 1); absent: a shopper without a taste, everyone's looks. */
  liking?: (entry: LookEntry) => number;
}

interface Candidate extends LookPiece {
  entry: LookEntry;
  palette: Palette;
}

interface Partial {
  pieces: Candidate[];
  score: number;
  louds: number;
  /** The look's gender and age group: the source's, else the first piece's that states one. */
  gender: number;
  ageId: number;
  /** The occasions every piece stating one shares, the source's first (0: none stated yet). */
  occasions: number;
}

export function composeLooks(index: LookIndex, sourceId: string, o: ComposeOptions): LookPiece[][] {
  const source = index.get(sourceId);
  const templates = source ? LOOK_TEMPLATES[source.kind] : undefined;
  if (!source || !templates || o.wanted <= 0) return [];
  const sourcePalette = paletteFor(source, o.variationId).palette;
  const weights = o.weights ? scaled(o.weights) : WEIGHTS;
  const passFor = (strict: boolean): Pass => {
    const fits = new SourceFits(source, sourcePalette, weights, strict);
    const candidates = new Map<Slot, Candidate[]>();
    for (const template of templates) for (const slot of template) candidates.set(slot, slotCandidates(index, fits, slot, o));
    return { strict, candidates };
  };
  const strict = passFor(true);
  let relaxed: Pass | undefined;

  const uses = new Map<string, number>();
  for (const look of o.taken) for (const id of look) uses.set(id, (uses.get(id) ?? 0) + 1);
  const stories = new Map<string, number>();
  const looks: LookPiece[][] = [];
  while (looks.length < o.wanted) {
    const best =
      bestLook(templates, strict, source, sourcePalette, uses, stories) ??
      bestLook(templates, (relaxed ??= passFor(false)), source, sourcePalette, uses, stories);
    if (!best) break;
    for (const piece of best.look) uses.set(piece.id, (uses.get(piece.id) ?? 0) + 1);
    stories.set(best.story, (stories.get(best.story) ?? 0) + 1);
    looks.push(best.look.map(({ entry: _entry, palette: _palette, ...piece }) => piece));
  }
  return looks;
}

/**
 * One way of composing: strict, every piece agrees in occasion with the look (occasionsAgree); relaxed, pieces
 * need only not be "never together" (look-rules.ts), for when the catalog has no agreeing piece left (a girls'
 * party dress and no party shoes for girls).
 */
interface Pass {
  strict: boolean;
  candidates: Map<Slot, Candidate[]>;
}

/** The best look of any template, given the pieces and colour stories earlier looks used; null when none can be made. */
function bestLook(
  templates: readonly (readonly Slot[])[],
  pass: Pass,
  source: LookEntry,
  sourcePalette: Palette,
  uses: Map<string, number>,
  stories: Map<string, number>,
): { look: Candidate[]; value: number; story: string } | null {
  let best: { look: Candidate[]; value: number; story: string } | null = null;
  for (const template of templates) {
    const required = template.filter((s) => !s.optional).length || 1;
    for (const state of beam(template, pass, source, sourcePalette, uses)) {
      const story = storyOf([sourcePalette, ...state.pieces.map((p) => p.palette)]);
      const value = state.score / required - STORY_PENALTY * (stories.get(story) ?? 0);
      if (!best || value > best.value) best = { look: state.pieces, value, story };
    }
  }
  return best;
}

/** What one request reads again and again: how each palette, season mask and occasion mask fits the source. */
class SourceFits {
  private readonly colours = new Float32Array(MAX_PALETTES + 1).fill(-1);
  readonly seasons: Float32Array;
  readonly occasions: Float32Array;

  // Set in the body, not as field initialisers: with native class fields those run before parameter properties.
  // Strict, an occasion that does not agree with the source's fits 0 (ruled out, as "never together" is).
  constructor(
    readonly source: LookEntry,
    readonly palette: Palette,
    readonly weights: Weights,
    strict: boolean,
  ) {
    this.seasons = Float32Array.from({ length: 1 << SEASONS.length }, (_, mask) => seasonFit(source.seasons, mask));
    this.occasions = Float32Array.from({ length: 1 << OCCASIONS.length }, (_, mask) =>
      strict && !occasionsAgree(source.occasions, mask) ? 0 : occasionFit(source.occasions, mask),
    );
  }

  colour(paletteId: number): number {
    let fit = this.colours[paletteId]!;
    if (fit < 0) this.colours[paletteId] = fit = harmony(this.palette, paletteById(paletteId));
    return fit;
  }
}

/**
 * The best products for a slot, scored against the source alone: hard rules first (stock, gender, age group,
 * not the source's category), then the score. The best neutral pieces and the best coloured ones are kept
 * apart (CANDIDATES each): with a neutral source every accent outscores every neutral, and a slot of accents
 * only would leave the beam nothing that goes with a loud piece. Only the few kept become objects.
 */
function slotCandidates(index: LookIndex, fits: SourceFits, slot: Slot, o: Pick<ComposeOptions, "evidence" | "liking">): Candidate[] {
  const { evidence, liking } = o;
  const source = fits.source;
  const neutral = new Best();
  const coloured = new Best();
  for (const kind of slot.kinds) {
    const c = index.ofKind(kind);
    if (!c) continue;
    for (let i = 0; i < c.entries.length; i++) {
      if (c.categoryId[i] === source.categoryId || !agree(c.gender[i]!, source.gender) || !agree(c.ageId[i]!, source.ageId)) continue;
      let colour = -1;
      let palette = 0;
      for (let j = c.colourStart[i]!; j < c.colourStart[i + 1]!; j++) {
        const fit = fits.colour(c.palettes[j]!);
        if (fit > colour) {
          colour = fit;
          palette = c.palettes[j]!;
        }
      }
      const n = evidence.size ? (evidence.get(c.entries[i]!.id) ?? 0) : 0;
      const score = blend(
        composedScore(
          fits.weights,
          fits.seasons[c.seasons[i]!]!,
          fits.occasions[c.occasions[i]!]!,
          Math.abs(source.pricePercentile - c.pricePercentile[i]!),
          colour,
        ),
        n,
      );
      if (score >= 0)
        (paletteById(palette).neutral ? neutral : coloured).offer(
          c.entries[i]!,
          liking ? score + TASTE_LIFT * liking(c.entries[i]!) : score,
        );
    }
  }
  return [...neutral.kept, ...coloured.kept]
    .map((entry) => candidate(fits, entry, slot, evidence.get(entry.id) ?? 0, liking ? TASTE_LIFT * liking(entry) : 0))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

/** The CANDIDATES best-scored entries offered. */
class Best {
  readonly kept: LookEntry[] = [];
  private readonly scores: number[] = [];
  private worst = 0;

  offer(entry: LookEntry, score: number): void {
    if (this.kept.length < CANDIDATES) {
      this.kept.push(entry);
      this.scores.push(score);
      if (this.kept.length === CANDIDATES) this.worst = this.lowest();
    } else if (score > this.scores[this.worst]!) {
      this.kept[this.worst] = entry;
      this.scores[this.worst] = score;
      this.worst = this.lowest();
    }
  }

  private lowest(): number {
    let at = 0;
    for (let i = 1; i < this.scores.length; i++) if (this.scores[i]! < this.scores[at]!) at = i;
    return at;
  }
}

/** The composed score of a piece's fits with the source (0 to 1), or -1 when a soft rule rules it out. */
function composedScore(w: Weights, season: number, occasion: number, priceGap: number, colour: number): number {
  if (season === 0 || occasion === 0 || colour === 0 || priceGap > PRICE_BAND) return -1;
  return w.colour * colour + w.occasion * occasion + w.season * season + w.price * priceFit(priceGap);
}

/** The weights scaled to sum to 1 (the experiment schema refuses weights that are all 0). */
function scaled(w: Weights): Weights {
  const sum = w.colour + w.occasion + w.season + w.price;
  return { colour: w.colour / sum, occasion: w.occasion / sum, season: w.season / sum, price: w.price / sum };
}

const priceFit = (gap: number) => (Number.isNaN(gap) ? 0.5 : Math.max(0, 1 - gap / PRICE_BAND));

/**
 * The composed score blended with shopper evidence; -1 when a soft rule ruled the piece out and no evidence
 * keeps it (a piece kept by evidence alone counts as composed 0).
 */
function blend(composed: number, evidence: number): number {
  if (composed < 0 && evidence === 0) return -1;
  return (evidence * TAUGHT_SCORE + PRIOR_STRENGTH * Math.max(0, composed)) / (evidence + PRIOR_STRENGTH);
}

/** A kept product as a candidate: its parts for explanations, and the colour variation that goes best. */
function candidate(fits: SourceFits, entry: LookEntry, slot: Slot, evidence: number, personal: number): Candidate {
  let chosen = paletteFor(entry);
  for (const c of entry.colours) if (fits.colour(c.palette.id) > fits.colour(chosen.palette.id)) chosen = c;
  const season = fits.seasons[entry.seasons]!;
  const occasion = fits.occasions[entry.occasions]!;
  const gap = Math.abs(fits.source.pricePercentile - entry.pricePercentile);
  const colour = fits.colour(chosen.palette.id);
  const composed = composedScore(fits.weights, season, occasion, gap, colour);
  return {
    id: entry.id,
    slot: slot.name,
    ...(chosen.variationId ? { variationId: chosen.variationId } : {}),
    composed: Math.max(0, composed),
    colour,
    occasion,
    season,
    price: priceFit(gap),
    evidence,
    score: blend(composed, evidence) + personal,
    personal,
    colourRelation: relation(fits.palette, chosen.palette),
    entry,
    palette: chosen.palette,
  };
}

/** The best complete looks of one template, given the pieces earlier looks used. */
function beam(template: readonly Slot[], pass: Pass, source: LookEntry, sourcePalette: Palette, uses: Map<string, number>): Partial[] {
  let states: Partial[] = [
    { pieces: [], score: 0, louds: sourcePalette.loud ? 1 : 0, gender: source.gender, ageId: source.ageId, occasions: source.occasions },
  ];
  for (const slot of template) {
    const next = new BestStates();
    if (slot.optional) for (const state of states) next.offer(state, null, state.score);
    for (const state of states) {
      for (const c of pass.candidates.get(slot)!) {
        const used = uses.get(c.id) ?? 0;
        if (used >= MAX_USES) continue;
        const gain = fits(state, c, pass.strict);
        if (gain === null) continue;
        const value = gain - REUSE_PENALTY * used - (slot.optional ? OPTIONAL_BAR : 0);
        if (slot.optional && value <= 0) continue;
        next.offer(state, c, state.score + value);
      }
    }
    if (next.size === 0) return [];
    states = next.states();
  }
  return states;
}

/** A partial look offered to the next step: the state it extends, the piece it adds (null: the slot skipped). */
interface Offered {
  from: Partial;
  piece: Candidate | null;
  score: number;
}

/**
 * The BEAM best partial looks of a step, best score first and, among equal scores, in the order offered (what a
 * stable sort of every offer would keep). A step offers hundreds, and a look composes tens of steps: only an
 * offer that gets in is kept, and only the kept ones become looks with their own list of pieces.
 */
class BestStates {
  private readonly kept: Offered[] = [];

  get size(): number {
    return this.kept.length;
  }

  offer(from: Partial, piece: Candidate | null, score: number): void {
    let at = this.kept.length;
    while (at > 0 && this.kept[at - 1]!.score < score) at--;
    if (at >= BEAM) return;
    this.kept.splice(at, 0, { from, piece, score });
    if (this.kept.length > BEAM) this.kept.pop();
  }

  states(): Partial[] {
    return this.kept.map(({ from, piece: c, score }) =>
      c === null
        ? from
        : {
            pieces: [...from.pieces, c],
            score,
            louds: from.louds + (c.palette.loud ? 1 : 0),
            gender: from.gender === ANY_GENDER ? c.entry.gender : from.gender,
            ageId: from.ageId || c.entry.ageId,
            occasions: sharedOccasions(from.occasions, c),
          },
    );
  }
}

/**
 * What a candidate adds to a partial look (its score, weighed by how it goes with the pieces so far), or null
 * when it cannot join. Strict, it must agree in occasion with the look, unless shoppers taught the pair.
 */
function fits(state: Partial, c: Candidate, strict: boolean): number | null {
  if (c.palette.loud && state.louds > 0 && c.evidence === 0) return null;
  if (!agree(c.entry.gender, state.gender) || !agree(c.entry.ageId, state.ageId)) return null;
  if (strict && c.evidence === 0 && !occasionsAgree(state.occasions, c.entry.occasions)) return null;
  let colours = 0;
  let seasons = 0;
  for (const p of state.pieces) {
    if (p.id === c.id || p.entry.categoryId === c.entry.categoryId) return null;
    const colour = harmony(p.palette, c.palette);
    const season = seasonFit(p.entry.seasons, c.entry.seasons);
    if (colour === 0 || season === 0 || occasionFit(p.entry.occasions, c.entry.occasions) === 0) return null;
    colours += colour;
    seasons += season;
  }
  const n = state.pieces.length;
  if (n === 0) return c.score;
  return c.score * (1 - TOGETHER.colour + (TOGETHER.colour * colours + TOGETHER.season * (seasons - n * UNSTATED_FIT)) / n);
}

/** The look's occasions once a candidate joins: narrowed to those it shares (a taught piece that shares none leaves them). */
function sharedOccasions(look: number, c: Candidate): number {
  if (look === 0) return c.entry.occasions;
  return look & c.entry.occasions || look;
}
