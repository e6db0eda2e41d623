/**
 * Finds where one MessagePack item ends without decoding it, so that a stream of records can be
 * cut into records (to check each one's CRC, to copy records byte for byte, and to tell a truncated
 * tail from a whole record). Follows the MessagePack spec's type bytes; nested arrays and maps are
 * walked with a counter of items still expected, not recursion.
 */

/** The item is cut off by the end of the buffer. */
export const ITEM_TRUNCATED = -1;
/** 0xc1 is the one byte MessagePack never uses. */
export const ITEM_INVALID = -2;

/** The offset just past the item that starts at `pos`, or ITEM_TRUNCATED / ITEM_INVALID. */
export function msgpackItemEnd(buf: Uint8Array, pos: number, end = buf.length): number {
  let pending = 1;
  let p = pos;
  const need = (n: number): boolean => p + n <= end;
  const u16 = (at: number) => (buf[at]! << 8) | buf[at + 1]!;
  const u32 = (at: number) => buf[at]! * 0x1000000 + ((buf[at + 1]! << 16) | (buf[at + 2]! << 8) | buf[at + 3]!);
  while (pending > 0) {
    if (!need(1)) return ITEM_TRUNCATED;
    const t = buf[p++]!;
    pending--;
    let skip = 0;
    if (t <= 0x7f || t >= 0xe0 || t === 0xc0 || t === 0xc2 || t === 0xc3) skip = 0; // fixint, nil, bool
    else if (t >= 0xa0 && t <= 0xbf) skip = t & 0x1f; // fixstr
    else if (t >= 0x90 && t <= 0x9f) pending += t & 0x0f; // fixarray
    else if (t >= 0x80 && t <= 0x8f) pending += 2 * (t & 0x0f); // fixmap
    else {
      switch (t) {
        case 0xc1:
          return ITEM_INVALID;
        case 0xc4: case 0xd9: // bin8, str8
          if (!need(1)) return ITEM_TRUNCATED;
          skip = buf[p]!;
          p += 1;
          break;
        case 0xc5: case 0xda: // bin16, str16
          if (!need(2)) return ITEM_TRUNCATED;
          skip = u16(p);
          p += 2;
          break;
        case 0xc6: case 0xdb: // bin32, str32
          if (!need(4)) return ITEM_TRUNCATED;
          skip = u32(p);
          p += 4;
          break;
        case 0xc7: // ext8: length, type
          if (!need(2)) return ITEM_TRUNCATED;
          skip = buf[p]! + 1;
          p += 1;
          break;
        case 0xc8: // ext16
          if (!need(3)) return ITEM_TRUNCATED;
          skip = u16(p) + 1;
          p += 2;
          break;
        case 0xc9: // ext32
          if (!need(5)) return ITEM_TRUNCATED;
          skip = u32(p) + 1;
          p += 4;
          break;
        case 0xca: skip = 4; break; // float32
        case 0xcb: skip = 8; break; // float64
        case 0xcc: case 0xd0: skip = 1; break; // (u)int8
        case 0xcd: case 0xd1: skip = 2; break;
        case 0xce: case 0xd2: skip = 4; break;
        case 0xcf: case 0xd3: skip = 8; break;
        case 0xd4: skip = 2; break; // fixext1..16: type byte + data
        case 0xd5: skip = 3; break;
        case 0xd6: skip = 5; break;
        case 0xd7: skip = 9; break;
        case 0xd8: skip = 17; break;
        case 0xdc: // array16
          if (!need(2)) return ITEM_TRUNCATED;
          pending += u16(p);
          p += 2;
          break;
        case 0xdd: // array32
          if (!need(4)) return ITEM_TRUNCATED;
          pending += u32(p);
          p += 4;
          break;
        case 0xde: // map16
          if (!need(2)) return ITEM_TRUNCATED;
          pending += 2 * u16(p);
          p += 2;
          break;
        case 0xdf: // map32
          if (!need(4)) return ITEM_TRUNCATED;
          pending += 2 * u32(p);
          p += 4;
          break;
        default:
          return ITEM_INVALID;
      }
    }
    if (skip > 0) {
      if (!need(skip)) return ITEM_TRUNCATED;
      p += skip;
    }
  }
  return p;
}
