import { deltaE } from "./oklab-pixels.ts";

/*
 * The few colours a set of pixels is made of: k-means in OKLab, where distance follows how different colours
 * look. The pixels are first counted into small colour bins (6 bits per sRGB channel), so the work depends on how
 * many distinct colours an image has rather than its size, and a flat-coloured product is a handful of bins.
 * Seeding is deterministic (the most common colour, then greedily the bin that adds the most weighted squared
 * distance, as k-means++ would pick on average), so one image always gives one answer. Clusters that look alike
 * are merged, and each cluster is shown by the colour around its most common one: its mean would be pulled by
 * the blends at its edges (a seam between two stripes, a fold's shading) towards colours the product lacks.
 */

export interface ColourCluster {
  lab: [number, number, number];
  /** Pixels in the cluster. */
  weight: number;
  /** Its bins (indexes into Bins). */
  members: number[];
}

export interface ClusterOptions {
  /** Most clusters k-means looks for. */
  maxClusters: number;
  /** Clusters whose colours are nearer than this (ΔE OK) are one colour. */
  mergeDistance: number;
  /** A cluster is shown by the bins this near (ΔE OK) its most common bin. */
  typicalRadius: number;
}

/** A centre that lowers the mean squared distance (ΔE OK²) by less than this adds nothing a shopper would see. */
const MIN_SEED_GAIN = 0.02 ** 2;
/** Bins considered as centres when seeding: the heaviest ones. */
const MAX_CANDIDATES = 256;
const MAX_ITERATIONS = 30;

export interface Bins {
  lab: Float64Array;
  weight: Float64Array;
  count: number;
  /** Each pixel's bin, -1 outside the mask. */
  pixelBin: Int32Array;
}

/** Pixels `p` with mask[p] = 1, counted by 6-bit RGB bin; each bin's colour is its pixels' mean OKLab. */
export function binPixels(rgba: Uint8Array, lab: Float64Array, mask: Uint8Array): Bins {
  const index = new Map<number, number>();
  const sums: number[] = [];
  const counts: number[] = [];
  const pixelBin = new Int32Array(mask.length).fill(-1);
  for (let p = 0; p < mask.length; p++) {
    if (!mask[p]) continue;
    const key = ((rgba[p * 4]! >> 2) << 12) | ((rgba[p * 4 + 1]! >> 2) << 6) | (rgba[p * 4 + 2]! >> 2);
    let i = index.get(key);
    if (i === undefined) {
      i = counts.length;
      index.set(key, i);
      counts.push(0);
      sums.push(0, 0, 0);
    }
    pixelBin[p] = i;
    counts[i]!++;
    sums[i * 3]! += lab[p * 3]!;
    sums[i * 3 + 1]! += lab[p * 3 + 1]!;
    sums[i * 3 + 2]! += lab[p * 3 + 2]!;
  }
  const count = counts.length;
  const binLab = new Float64Array(count * 3);
  for (let i = 0; i < count; i++) for (let c = 0; c < 3; c++) binLab[i * 3 + c] = sums[i * 3 + c]! / counts[i]!;
  return { lab: binLab, weight: Float64Array.from(counts), count, pixelBin };
}

export function clusterColours(bins: Bins, opts: ClusterOptions): ColourCluster[] {
  if (bins.count === 0) return [];
  const centres = seed(bins, opts.maxClusters);
  const assignment = new Int32Array(bins.count);
  lloyd(bins, centres, assignment);
  const groups = merge(bins, centres, assignment, opts.mergeDistance);
  return groups.map((members) => ({
    lab: typicalColour(bins, members, opts.typicalRadius),
    weight: sum(members.map((i) => bins.weight[i]!)),
    members,
  }));
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function nearest(bins: Bins, i: number, centres: number[]): { centre: number; distance: number } {
  let centre = 0;
  let distance = Infinity;
  for (let c = 0; c * 3 < centres.length; c++) {
    const d = dist2(bins.lab, i * 3, centres, c * 3);
    if (d < distance) (distance = d), (centre = c);
  }
  return { centre, distance: Math.sqrt(distance) };
}

/** Squared ΔE OK: the inner loops compare distances and need no square root. */
function dist2(x: ArrayLike<number>, i: number, y: ArrayLike<number>, j: number): number {
  const dl = x[i]! - y[j]!;
  const da = x[i + 1]! - y[j + 1]!;
  const db = x[i + 2]! - y[j + 2]!;
  return dl * dl + da * da + db * db;
}

function seed(bins: Bins, k: number): number[] {
  // Candidates: the heaviest bins (a colour covering a few percent of the product has some among them).
  const candidates = [...bins.weight.keys()].sort((a, b) => bins.weight[b]! - bins.weight[a]! || a - b).slice(0, MAX_CANDIDATES);
  const first = candidates[0]!;
  const centres = [bins.lab[first * 3]!, bins.lab[first * 3 + 1]!, bins.lab[first * 3 + 2]!];
  const total = sum([...bins.weight]);
  // Each bin's squared distance to its nearest centre so far.
  const d2 = Float64Array.from({ length: bins.count }, (_, i) => dist2(bins.lab, i * 3, centres, 0));
  while (centres.length / 3 < k) {
    // The candidate whose addition lowers the weighted sum of squared distances most (greedy k-means++): a
    // colour spread over many bins (a noisy photo) counts as a whole, where one bin's own weight would not.
    let best = -1;
    let bestGain = 0;
    for (const c of candidates) {
      let gain = 0;
      for (let i = 0; i < bins.count; i++) {
        const d = dist2(bins.lab, i * 3, bins.lab, c * 3);
        if (d < d2[i]!) gain += bins.weight[i]! * (d2[i]! - d);
      }
      if (gain > bestGain) (bestGain = gain), (best = c);
    }
    if (best < 0 || bestGain / total < MIN_SEED_GAIN) break;
    centres.push(bins.lab[best * 3]!, bins.lab[best * 3 + 1]!, bins.lab[best * 3 + 2]!);
    for (let i = 0; i < bins.count; i++) d2[i] = Math.min(d2[i]!, dist2(bins.lab, i * 3, bins.lab, best * 3));
  }
  return centres;
}

function lloyd(bins: Bins, centres: number[], assignment: Int32Array): void {
  const k = centres.length / 3;
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let changed = iteration === 0;
    for (let i = 0; i < bins.count; i++) {
      const c = nearest(bins, i, centres).centre;
      if (assignment[i] !== c) (assignment[i] = c), (changed = true);
    }
    if (!changed) return;
    const sums = new Float64Array(k * 4);
    for (let i = 0; i < bins.count; i++) {
      const c = assignment[i]!;
      const w = bins.weight[i]!;
      for (let j = 0; j < 3; j++) sums[c * 4 + j]! += bins.lab[i * 3 + j]! * w;
      sums[c * 4 + 3]! += w;
    }
    for (let c = 0; c < k; c++) {
      const w = sums[c * 4 + 3]!;
      if (w > 0) for (let j = 0; j < 3; j++) centres[c * 3 + j] = sums[c * 4 + j]! / w;
    }
  }
}

/** Groups of bin indexes, one per colour, after joining the closest pair of clusters while they look alike. */
function merge(bins: Bins, centres: number[], assignment: Int32Array, distance: number): number[][] {
  const groups: { members: number[]; lab: number[]; weight: number }[] = [];
  for (let c = 0; c * 3 < centres.length; c++) {
    const members = [...assignment.keys()].filter((i) => assignment[i] === c);
    if (members.length) groups.push({ members, lab: centres.slice(c * 3, c * 3 + 3), weight: sum(members.map((i) => bins.weight[i]!)) });
  }
  for (;;) {
    let pair: [number, number] | null = null;
    let closest = distance;
    for (let a = 0; a < groups.length; a++) {
      for (let b = a + 1; b < groups.length; b++) {
        const d = deltaE(groups[a]!.lab, 0, groups[b]!.lab, 0);
        if (d < closest) (closest = d), (pair = [a, b]);
      }
    }
    if (!pair) return groups.map((g) => g.members);
    const [x, y] = [groups[pair[0]]!, groups[pair[1]]!];
    const weight = x.weight + y.weight;
    x.lab = x.lab.map((v, j) => (v * x.weight + y.lab[j]! * y.weight) / weight);
    x.members.push(...y.members);
    x.weight = weight;
    groups.splice(pair[1], 1);
  }
}

/** The weighted mean of the member bins near the cluster's most common bin. */
function typicalColour(bins: Bins, members: number[], radius: number): [number, number, number] {
  let mode = members[0]!;
  for (const i of members) if (bins.weight[i]! > bins.weight[mode]!) mode = i;
  const out: [number, number, number] = [0, 0, 0];
  let total = 0;
  for (const i of members) {
    if (deltaE(bins.lab, i * 3, bins.lab, mode * 3) > radius) continue;
    const w = bins.weight[i]!;
    for (let j = 0; j < 3; j++) out[j]! += bins.lab[i * 3 + j]! * w;
    total += w;
  }
  return out.map((v) => v / total) as [number, number, number];
}

/**
 * Per cluster, the share of its pixels that touch (4-neighbours) a pixel of another cluster or of the backdrop.
 * Near 1 for a line one or two pixels wide: an outline, a seam, a watch's hands, which are drawing, not a colour.
 */
export function edgeShares(bins: Bins, clusters: ColourCluster[], width: number): number[] {
  const clusterOfBin = new Int32Array(bins.count).fill(-1);
  clusters.forEach((c, k) => c.members.forEach((i) => (clusterOfBin[i] = k)));
  const label = (p: number) => (bins.pixelBin[p]! < 0 ? -1 : clusterOfBin[bins.pixelBin[p]!]!);
  const n = bins.pixelBin.length;
  const edge = new Array<number>(clusters.length).fill(0);
  const all = new Array<number>(clusters.length).fill(0);
  for (let p = 0; p < n; p++) {
    const k = label(p);
    if (k < 0) continue;
    all[k]!++;
    const x = p % width;
    const touches =
      (x > 0 && label(p - 1) !== k) ||
      (x < width - 1 && label(p + 1) !== k) ||
      (p >= width && label(p - width) !== k) ||
      (p + width < n && label(p + width) !== k);
    if (touches) edge[k]!++;
  }
  return edge.map((e, k) => (all[k] ? e / all[k]! : 0));
}
