import { describe, expect, it } from 'vitest';
import { formatOf } from '../../../src/db/backup.ts';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('which database a backup file is for', () => {
  it("knows pg_dump's custom format by its signature", () => {
    expect(formatOf(new TextEncoder().encode('PGDMP\u0001\u000e\u0000'))).toBe('postgres');
  });
  it("knows the embedded database's gzip tarball", () => {
    expect(formatOf(bytes(0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0))).toBe('embedded');
  });
  it('takes nothing else for a backup', () => {
    expect(formatOf(new TextEncoder().encode('not a backup'))).toBeNull();
    expect(formatOf(bytes(0x1f))).toBeNull();
    expect(formatOf(bytes())).toBeNull();
    expect(formatOf(new TextEncoder().encode('PGDM'))).toBeNull();
  });
});
