import { createHash } from 'node:crypto';
import sharp from 'sharp';

// The thumbnail's size, so that making it needs no enlarging.
const SIZE = 256;
const GRID = 5;
const CELL = SIZE / (GRID + 1);

/**
 * A symmetric 5x5 identicon PNG derived from the seed text: unique per person, needs no fonts or
 * files, and goes through the same processing as an uploaded picture.
 */
export async function identicon(seedText: string): Promise<Buffer> {
  const hash = createHash('sha256').update(seedText).digest();
  const hue = ((hash[0] ?? 0) / 255) * 360;
  const [r, g, b] = hslToRgb(hue, 0.55, 0.5);
  const pixels = Buffer.alloc(SIZE * SIZE * 3, 0xf2);
  const margin = CELL / 2;
  for (let row = 0; row < GRID; row++) {
    for (let col = 0; col < Math.ceil(GRID / 2); col++) {
      if (((hash[1 + row * 3 + col] ?? 0) & 1) === 0) continue;
      for (const c of new Set([col, GRID - 1 - col])) {
        const x0 = Math.round(margin + c * CELL);
        const y0 = Math.round(margin + row * CELL);
        for (let y = y0; y < Math.round(y0 + CELL); y++) {
          for (let x = x0; x < Math.round(x0 + CELL); x++) {
            const at = (y * SIZE + x) * 3;
            pixels[at] = r;
            pixels[at + 1] = g;
            pixels[at + 2] = b;
          }
        }
      }
    }
  }
  return sharp(pixels, { raw: { width: SIZE, height: SIZE, channels: 3 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}
