import { RESOURCE_BY_KEY, subListsOf } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { listCrumbs, recordCrumbs } from '../../src/registry/breadcrumbs';

const country = RESOURCE_BY_KEY.country;
const france = { code: 'COUNTRY-1', name: 'France' };
const statesOf = { parent: country, sub: subListsOf(country).find((s) => s.resource === 'state')! };

describe('listCrumbs', () => {
  it('leads from the registry to a module list, the list itself unlinked', () => {
    expect(listCrumbs(country)).toEqual([{ label: 'Registry', to: '/registry' }, { label: 'Countries' }]);
  });

  it("goes through the parent's list and record to a sub-list", () => {
    expect(listCrumbs(RESOURCE_BY_KEY.state, { subList: statesOf, record: france })).toEqual([
      { label: 'Registry', to: '/registry' },
      { label: 'Countries', to: '/registry/countries' },
      { label: 'France', to: '/registry/country/COUNTRY-1' },
      { label: 'States' },
    ]);
  });

  it('names a parent still loading (or nameless) by its code', () => {
    const crumbs = listCrumbs(RESOURCE_BY_KEY.state, {
      subList: statesOf,
      record: { code: 'C/1', name: '' },
    });
    expect(crumbs[2]).toEqual({ label: 'C/1', to: '/registry/country/C%2F1' });
  });
});

describe('recordCrumbs', () => {
  it('ends a view at the record name', () => {
    expect(recordCrumbs(country, 'view', france, true)).toEqual([
      { label: 'Registry', to: '/registry' },
      { label: 'Countries', to: '/registry/countries' },
      { label: 'France' },
    ]);
  });

  it('links the record from its edit screen, which ends at Edit', () => {
    expect(recordCrumbs(country, 'update', france, true)).toEqual([
      { label: 'Registry', to: '/registry' },
      { label: 'Countries', to: '/registry/countries' },
      { label: 'France', to: '/registry/country/COUNTRY-1' },
      { label: 'Edit' },
    ]);
  });

  it('links neither the list nor the record for a user who may edit or create but not view them', () => {
    expect(recordCrumbs(country, 'update', france, false)).toEqual([
      { label: 'Registry', to: '/registry' },
      { label: 'Countries' },
      { label: 'France' },
      { label: 'Edit' },
    ]);
    expect(recordCrumbs(RESOURCE_BY_KEY.gender, 'create', { code: '', name: '' }, false)[1]).toEqual({
      label: 'Genders',
    });
  });

  it("ends a create screen at the list's own words for it", () => {
    expect(recordCrumbs(RESOURCE_BY_KEY.gender, 'create', { code: '', name: '' }, true)).toEqual([
      { label: 'Registry', to: '/registry' },
      { label: 'Genders', to: '/registry/genders' },
      { label: 'Add Gender' },
    ]);
  });

  it('names a record by its code until its name is known, or when it has none', () => {
    expect(recordCrumbs(country, 'view', { code: 'COUNTRY-1', name: '' }, true).at(-1)).toEqual({
      label: 'COUNTRY-1',
    });
    expect(recordCrumbs(RESOURCE_BY_KEY.audit, 'view', { code: 'AUDIT-7', name: '' }, true)).toEqual([
      { label: 'Registry', to: '/registry' },
      { label: 'Audit Logs', to: '/registry/audit-logs' },
      { label: 'AUDIT-7' },
    ]);
  });
});
