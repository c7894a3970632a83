import { screen, waitFor, within } from '@testing-library/react';
import { IMPORT_MESSAGES, type ImportListItem, type ImportRecord } from '@wfc/contract';
import { describe, expect, it, vi } from 'vitest';
import { writeStoredUser } from '../../src/auth/storage';
import {
  ok,
  reply,
  resetScreensAfterEach,
  SCREEN_TEST_TIMEOUT,
  type Stub,
  stubApi,
} from '../registry/harness';
import { renderWholeApp } from '../support/app';
import { sessionUser } from '../support/session';

const SCORER = ['VIEW_PERFORMANCES', 'CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE'];

const base: ImportRecord = {
  importCode: 'IMP-9',
  module: 'performance',
  mode: 'upsert',
  fileName: 'year-of-scores.xlsx',
  format: 'xlsx',
  sheet: 'Scores',
  sheets: ['Scores'],
  layout: 'wide',
  status: 'committing',
  columns: ['Employee Id', 'Date', 'Accuracy'],
  mapping: ['employeeId', 'date', 'skill:SKILL-1'],
  fields: [],
  counts: { rows: 50_000, create: 40_000, update: 10_000, unchanged: 0, errors: 0, skipped: 0 },
  errors: [],
  errorCount: 0,
  sample: [],
  progress: { checked: 50_000, written: 12_500, rowsPerSecond: 8_400 },
  skipErrors: false,
  message: null,
  createdBy: { userCode: 'USER-TESTER', username: 'tester' },
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  committedAt: null,
};

/** A 1440 px wide window: jsdom has no matchMedia, so MUI would otherwise take it for a phone. */
function desktop() {
  vi.stubGlobal('matchMedia', (query: string) => {
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    return {
      matches: min !== null && Number(min[1]) <= 1440,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    };
  });
}

function renderAt(path: string, handlers: Record<string, Stub>, permissions = SCORER) {
  const user = sessionUser(permissions);
  writeStoredUser(user);
  const api = stubApi({ GetSession: ok(user), ...handlers });
  return { ...api, ...renderWholeApp(path) };
}

resetScreensAfterEach();

describe('a background import', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('shows its progress, asked every second, then its result', async () => {
    let polls = 0;
    const api = renderAt('/imports/IMP-9', {
      GetImportByCode: reply(() => {
        polls++;
        return ok(
          polls < 2
            ? base
            : {
                ...base,
                status: 'committed',
                progress: { ...base.progress, written: 50_000 },
                committedAt: '2026-11-27T10:05:00.000Z',
              },
        );
      }),
    });
    expect(await screen.findByText('Writing the records')).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Importing' });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(screen.getByText((_, el) => el?.textContent === '12,500 of 50,000 rows written')).toBeTruthy();
    expect(screen.getByText('8,400 rows per second')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel import' })).toBeTruthy();

    expect(
      await screen.findByText('year-of-scores.xlsx was imported into performance scores.', undefined, {
        timeout: 5000,
      }),
    ).toBeTruthy();
    expect(api.callsTo('GetImportByCode').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole('link', { name: 'Open the Performance Snapshot' }).getAttribute('href')).toBe(
      '/performance-snapshot',
    );
    expect(await screen.findByText(IMPORT_MESSAGES.committed)).toBeTruthy();
  });

  it('can be cancelled before its commit ends', async () => {
    const api = renderAt('/imports/IMP-9', {
      GetImportByCode: ok({
        ...base,
        status: 'checking',
        progress: { checked: 900, written: 0, rowsPerSecond: 450 },
      }),
      CancelImport: ok({ ...base, status: 'cancelled', message: null }, IMPORT_MESSAGES.cancelled),
    });
    expect(await screen.findByText('Checking the rows')).toBeTruthy();
    screen.getByRole('button', { name: 'Cancel import' }).click();
    await waitFor(() => expect(api.callsTo('CancelImport')).toHaveLength(1));
    expect(api.lastCallTo('CancelImport')?.body).toEqual({ importCode: 'IMP-9' });
    expect(await screen.findByText('The import was cancelled: nothing was written.')).toBeTruthy();
  });
});

describe('the Imports screen', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  const item = (over: Partial<ImportListItem>): ImportListItem => {
    const { fields: _f, errors: _e, sample: _s, ...rest } = base;
    return { ...rest, ...over };
  };

  it('lists imports with their counts and status, links each to its import, and is in the navigation', async () => {
    desktop();
    renderAt(
      '/imports',
      {
        GetImports: ok(
          [
            item({
              importCode: 'IMP-2',
              module: 'employee',
              fileName: 'people.csv',
              format: 'csv',
              status: 'ready',
              counts: { rows: 3, create: 2, update: 0, unchanged: 0, errors: 1, skipped: 0 },
              errorCount: 1,
            }),
            item({ status: 'committed', counts: { ...base.counts, skipped: 0 } }),
          ],
          IMPORT_MESSAGES.listed,
          2,
        ),
      },
      [...SCORER, 'VIEW_EMPLOYEES', 'CREATE_EMPLOYEE'],
    );
    const table = await screen.findByRole('table', { name: 'Imports' });
    const [, people, scores] = within(table).getAllByRole('row');
    if (!people || !scores) throw new Error('two rows expected');
    expect(within(people).getByRole('link', { name: 'people.csv' }).getAttribute('href')).toBe(
      '/imports/IMP-2',
    );
    expect(within(people).getByText('2 to create · 0 to update · 0 unchanged · 1 with errors')).toBeTruthy();
    expect(within(people).getByText('Ready to import')).toBeTruthy();
    expect(within(people).getByRole('button', { name: 'Download the error of people.csv' })).toBeTruthy();
    expect(within(scores).getByText('Performance scores')).toBeTruthy();
    expect(within(scores).getByText('40,000 created · 10,000 updated · 0 unchanged')).toBeTruthy();
    expect(within(scores).queryByRole('button', { name: /Download the/ })).toBeNull();
    const nav = await screen.findByRole('navigation', { name: 'Modules' }, { timeout: 15_000 });
    expect(within(nav).getByRole('link', { name: 'Imports' }).getAttribute('href')).toBe('/imports');
  });

  it('is refused to a user who may import nowhere', async () => {
    const { pathname } = renderAt('/imports', {}, ['VIEW_EMPLOYEES']);
    await waitFor(() => expect(pathname()).toBe('/access-denied'));
  });
});
