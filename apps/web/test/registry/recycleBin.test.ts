import { RESOURCE_BY_KEY } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client';
import { BIN_URL, deletedPath, missingParentOf } from '../../src/registry/bin/binQueries';

describe('the recycle bin screen', () => {
  it('lives under its module list, newest deletions first by default', () => {
    expect(deletedPath(RESOURCE_BY_KEY.department)).toBe('/registry/departments/deleted');
    expect(BIN_URL.read(new URLSearchParams())).toMatchObject({
      sortField: 'deletedAt',
      sortValue: 'desc',
      page: 1,
    });
    expect(BIN_URL.read(new URLSearchParams('sortField=name&sortValue=asc'))).toMatchObject({
      sortField: 'name',
      sortValue: 'asc',
    });
    // A sort the bin does not offer falls back to its default.
    expect(BIN_URL.read(new URLSearchParams('sortField=_id')).sortField).toBe('deletedAt');
    expect(BIN_URL.write(BIN_URL.read(new URLSearchParams())).toString()).toBe('');
  });

  it('reads the parent a refused restore names, with its module', () => {
    const refused = new ApiError({
      statusCode: 409,
      message:
        "Cannot restore this state: its country 'Binland' is in the recycle bin. Restore the country first",
      data: { parent: { module: 'countries', recordCode: 'COUNTRY-1', name: 'Binland', inBin: true } },
    });
    expect(missingParentOf(refused)).toMatchObject({
      def: RESOURCE_BY_KEY.country,
      recordCode: 'COUNTRY-1',
      name: 'Binland',
      inBin: true,
    });
    expect(
      missingParentOf(new ApiError({ statusCode: 409, message: 'A state with this name already exists' })),
    ).toBe(undefined);
    expect(missingParentOf(new Error('offline'))).toBeUndefined();
  });
});
