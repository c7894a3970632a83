import { describe, expect, it } from 'vitest';
import { conversionMessage, keptFolderName, unsupportedMessage } from '../../../src/db/embedded-upgrade.ts';

/* What an operator reads of a conversion of the embedded database (db/embedded-upgrade.ts). */

describe('the conversion of an embedded database', () => {
  it('names the kept folder after when it was converted, sortable and without colons', () => {
    expect(keptFolderName(new Date('2026-11-27T07:18:50.123Z'))).toBe(
      'console.pg17-backup-2026-11-27T071850',
    );
    expect(
      keptFolderName(new Date('2026-11-27T10:00:00Z')) > keptFolderName(new Date('2026-11-27T09:59:59Z')),
    ).toBe(true);
  });

  it('says what it did, how long it took and which folder to remove', () => {
    const done = {
      kept: '/srv/data/console.pg17-backup-2026-11-27T071850',
      seconds: 29.84,
      bytes: 147_161_690,
      resumed: false,
    };
    expect(conversionMessage('/srv/data', done)).toBe(
      'Converted the embedded database in /srv/data from PostgreSQL 17 (PGlite 0.3) to 18 in 29.8 s. ' +
        'The old database (140 MB) is kept in /srv/data/console.pg17-backup-2026-11-27T071850: remove that folder ' +
        'once the console runs as it should on the converted data.',
    );
    expect(conversionMessage('/srv/data', { ...done, resumed: true })).toMatch(/^Finished converting /);
  });

  it('names what to do with a version it neither opens nor converts', () => {
    expect(unsupportedMessage('/srv/data', '19')).toBe(
      "The embedded database in /srv/data was written by PostgreSQL 19: this release opens PostgreSQL 18's and " +
        "converts 17's (PGlite 0.3, the console's 1.x releases). Run it with the release that wrote it, or restore a backup of it.",
    );
  });
});
