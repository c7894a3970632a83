import { crc32, deflateRawSync, constants as zlib } from 'node:zlib';

/** An entry of a zip written by hand: its deflated bytes and what its headers declare. */
export interface ZipPart {
  name: string;
  packed: Buffer;
  /** What the directory declares the entry inflates to. */
  size: number;
  crc: number;
}

/** An entry deflated, declaring its true size unless told another (a zip that lies). */
export function partOf(name: string, text: string, declared?: number): ZipPart {
  const raw = Buffer.from(text);
  return { name, packed: deflateRawSync(raw), size: declared ?? raw.length, crc: crc32(raw) };
}

/**
 * An entry that inflates to `head` then `block` `times` over: the block deflated once and its
 * bytes repeated, so that hundreds of megabytes pack into a small file (a zip bomb).
 */
export function repeatedPart(
  name: string,
  head: Buffer,
  block: Buffer,
  times: number,
  declared?: number,
): ZipPart {
  const flush = { finishFlush: zlib.Z_SYNC_FLUSH };
  const packedBlock = deflateRawSync(block, flush);
  let crc = crc32(head);
  for (let i = 0; i < times; i++) crc = crc32(block, crc);
  return {
    name,
    packed: Buffer.concat([
      deflateRawSync(head, flush),
      ...Array.from({ length: times }, () => packedBlock),
      deflateRawSync(Buffer.alloc(0)),
    ]),
    size: declared ?? head.length + times * block.length,
    crc,
  };
}

/** A zip of deflated entries, each as its headers declare it. */
export function zipOf(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, packed, size, crc } of parts) {
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, packed);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(size, 24);
    dir.writeUInt16LE(nameBytes.length, 28);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dirBytes, end]);
}
