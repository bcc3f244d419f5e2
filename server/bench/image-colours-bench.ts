/*
 * Image colour extraction benchmark (not a test): images per second through extractColours(), against a
 * baseline measured in the same run on the same bytes: sharp decoding and shrinking the image to the same 96 px
 * raw pixels and nothing else (the part of the work no analysis can avoid). The ratio is what background
 * removal, clustering and naming the hex add on top.
 *
 *   inputs  the demo store's SVGs (a deterministic mix of families, 1–3 colours, sizes s/m/l); a 1000×1000 JPEG
 *           of a demo image (flat colours); the same with per-pixel noise (a photo's texture: thousands of
 *           distinct colours for the clustering)
 *   modes   one image at a time, and 4 in flight (sharp decodes on libuv's thread pool)
 *
 *   bun server/bench/image-colours-bench.ts [--seconds S]
 */
import sharp from "sharp";
import { renderImage } from "../../demo-store/src/catalog/images.ts";
import { extractColours } from "../src/modules/enrichment/image-colours.ts";
import { drawCases, svgOf } from "../test/support/demo-image-truth.ts";
import { numberArg } from "./bench-args.ts";

const SECONDS = numberArg("--seconds", 2);

/** The baseline: decode and shrink to the pixels extractColours analyses, with the same options. */
const decodeOnly = (bytes: Uint8Array) =>
  sharp(bytes, { limitInputPixels: 40_000_000, failOn: "error", pages: 1 })
    .resize(96, 96, { fit: "inside", kernel: "nearest", withoutEnlargement: true })
    .toColourspace("srgb")
    .ensureAlpha()
    .raw()
    .toBuffer();

/** Images per second over `inputs` (cycled) for about SECONDS, `inFlight` at a time. */
async function rate(inputs: Uint8Array[], inFlight: number, work: (bytes: Uint8Array) => Promise<unknown>): Promise<number> {
  for (const bytes of inputs.slice(0, 5)) await work(bytes); // warm-up
  let done = 0;
  let next = 0;
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const lane = async () => {
    while (performance.now() < until) {
      await work(inputs[next++ % inputs.length]!);
      done++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return done / ((performance.now() - started) / 1000);
}

async function photoLike(): Promise<{ flat: Buffer; noisy: Buffer }> {
  const svg = Buffer.from(renderImage({ kind: "product", family: "dress", colors: ["#1b2a4a", "#f0ece0", "#c62828"], size: "l" }));
  const { data, info } = await sharp(svg).resize(1000, 1000).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: 3 as const } };
  const flat = await sharp(data, raw).jpeg({ quality: 85 }).toBuffer();
  // Deterministic noise of ±12 per channel: the texture of fabric and sensor noise a real photo has.
  let seed = 12345;
  const noisy = Buffer.from(data);
  for (let i = 0; i < noisy.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    noisy[i] = Math.max(0, Math.min(255, noisy[i]! + ((seed >>> 16) % 25) - 12));
  }
  return { flat, noisy: await sharp(noisy, raw).jpeg({ quality: 85 }).toBuffer() };
}

const svgs = drawCases(120).map(svgOf);
const { flat, noisy } = await photoLike();
const inputs: [string, Uint8Array[]][] = [
  ["demo SVGs (s/m/l)", svgs],
  [`1000×1000 JPEG, flat (${Math.round(flat.length / 1024)} KiB)`, [flat]],
  [`1000×1000 JPEG, noisy (${Math.round(noisy.length / 1024)} KiB)`, [noisy]],
];

console.log(`Image colour extraction: images/s over ${SECONDS} s each; baseline = sharp decode + shrink to 96 px alone, same run`);
console.log("input                                  in flight  baseline img/s  extraction img/s  extraction / baseline");
for (const [label, bytes] of inputs) {
  for (const inFlight of [1, 4]) {
    const base = await rate(bytes, inFlight, decodeOnly);
    const full = await rate(bytes, inFlight, async (b) => {
      const result = await extractColours(b);
      if (!result.ok) throw new Error(result.detail);
    });
    console.log(
      `${label.padEnd(39)}${String(inFlight).padStart(9)}${base.toFixed(0).padStart(16)}${full.toFixed(0).padStart(18)}${(full / base).toFixed(2).padStart(23)}`,
    );
  }
}
