import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IMPORT_MESSAGES, type ImportRecord, importDefOf, importFieldsOf } from '@wfc/contract';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';
import { createEmotionCache } from '../../src/app/emotion';
import { createQueryClient } from '../../src/app/queryClient';
import { writeStoredUser } from '../../src/auth/storage';
import { MappingStep } from '../../src/imports/MappingStep';
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

const EMPLOYEE_IMPORTER = ['VIEW_EMPLOYEES', 'CREATE_EMPLOYEE', 'UPDATE_EMPLOYEE'];

const record = (over: Partial<ImportRecord> = {}): ImportRecord => ({
  importCode: 'IMP-1',
  module: 'employee',
  mode: 'upsert',
  fileName: 'people.csv',
  format: 'csv',
  sheet: null,
  sheets: [],
  layout: null,
  status: 'ready',
  columns: ['Employee Id', 'Full name', 'Department', 'Join Date', 'Notes'],
  mapping: ['employeeId', 'name', 'departmentCode', 'joinDate', null],
  fields: importFieldsOf(importDefOf('employee')).map((f) => ({ ...f, aliases: [...f.aliases] })),
  counts: { rows: 3, create: 1, update: 1, unchanged: 0, errors: 1, skipped: 0 },
  errors: [{ row: 3, column: 'Department', message: 'Department "Nowhere" does not exist' }],
  errorCount: 1,
  sample: [
    {
      row: 2,
      action: 'create',
      values: {
        employeeId: 'E-100',
        name: 'Ada Lovelace',
        departmentCode: 'Engineering',
        joinDate: '2024-03-01',
      },
    },
    {
      row: 3,
      action: 'error',
      values: { employeeId: 'E-101', name: 'Alan Turing', departmentCode: 'Nowhere', joinDate: '2024-03-02' },
    },
    {
      row: 4,
      action: 'update',
      values: {
        employeeId: 'E-001',
        name: 'Grace Hopper',
        departmentCode: 'Engineering',
        joinDate: '2020-01-01',
      },
    },
  ],
  progress: { checked: 3, written: 0, rowsPerSecond: 0 },
  skipErrors: false,
  message: null,
  createdBy: { userCode: 'USER-TESTER', username: 'tester' },
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  committedAt: null,
  ...over,
});

function renderImport(path: string, handlers: Record<string, Stub>, permissions = EMPLOYEE_IMPORTER) {
  const user = sessionUser(permissions);
  writeStoredUser(user);
  const api = stubApi({ GetSession: ok(user), ...handlers });
  return { ...api, ...renderWholeApp(path) };
}

resetScreensAfterEach();

describe('the mapping step', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  const renderMapping = (rec: ImportRecord, onCheck = vi.fn(), onContinue = vi.fn()) => {
    render(
      <AppProviders emotionCache={createEmotionCache()} queryClient={createQueryClient()}>
        <MappingStep
          record={rec}
          modes={['create', 'update', 'upsert']}
          checking={false}
          onCheck={onCheck}
          onContinue={onContinue}
          onBack={() => undefined}
        />
      </AppProviders>,
    );
    return { onCheck, onContinue };
  };

  it('shows each column with the field the server matched, and ignored ones as such', () => {
    renderMapping(record());
    const table = screen.getByRole('table', { name: 'Column mapping' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]?.textContent)).toEqual([
      'Employee Id',
      'Full name',
      'Department',
      'Join Date',
      'Notes',
    ]);
    expect(screen.getByRole('combobox', { name: 'Field for Full name' }).textContent).toBe('Name *');
    expect(screen.getByRole('combobox', { name: 'Field for Notes' }).textContent).toBe('Ignore this column');
    // Nothing changed: on to the preview the server made, without asking again.
    expect((screen.getByRole('button', { name: 'Check again' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('names a required field no column fills, and checks again with the new mapping', async () => {
    const user = userEvent.setup();
    const { onCheck } = renderMapping(
      record({ mapping: ['employeeId', null, 'departmentCode', 'joinDate', null] }),
    );
    expect(screen.getByRole('alert').textContent).toMatch(/A required field has no column: Name\./);

    await user.click(screen.getByRole('combobox', { name: 'Field for Full name' }));
    const listbox = await screen.findByRole('listbox');
    // A field another column fills cannot be chosen twice.
    expect(within(listbox).getByRole('option', { name: 'Employee Id *' }).getAttribute('aria-disabled')).toBe(
      'true',
    );
    await user.click(within(listbox).getByRole('option', { name: 'Name *' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());

    await user.click(screen.getByRole('combobox', { name: 'Field for Join Date' }));
    await user.click(await screen.findByRole('option', { name: 'Ignore this column' }));
    expect(screen.getByRole('alert').textContent).toMatch(/Join Date/);

    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(onCheck).toHaveBeenCalledWith({
      mapping: ['employeeId', 'name', 'departmentCode', null, null],
      mode: 'upsert',
    });
  });
});

describe('the preview', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('lists the errors, highlights their rows, and commits only once skipping them is chosen', async () => {
    const user = userEvent.setup();
    let committed: ImportRecord | undefined;
    const api = renderImport('/imports/IMP-1', {
      GetImportByCode: reply(() => ok(committed ?? record())),
      CommitImport: reply(() => {
        committed = record({
          status: 'committed',
          counts: { rows: 3, create: 1, update: 1, unchanged: 0, errors: 1, skipped: 1 },
          skipErrors: true,
          committedAt: '2026-11-27T10:01:00.000Z',
        });
        return ok(committed, IMPORT_MESSAGES.committed);
      }),
    });
    const errors = await screen.findByRole('table', { name: 'Errors' });
    const [, first] = within(errors).getAllByRole('row');
    expect(
      within(first as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['3', 'Department', 'Department "Nowhere" does not exist']);
    const counts = screen.getByRole('group', { name: 'Rows' });
    expect(within(counts).getByText('To create').previousSibling?.textContent).toBe('1');
    expect(within(counts).getByText('With errors').previousSibling?.textContent).toBe('1');

    const sample = screen.getByRole('table', { name: 'First rows' });
    expect(
      within(sample)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Row', 'Action', 'Employee Id', 'Name', 'Department', 'Join Date']);
    const rows = within(sample).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.hasAttribute('data-errored'))).toEqual([false, true, false]);
    expect(within(rows[1] as HTMLElement).getByText('Nowhere')).toBeTruthy();

    const commit = screen.getByRole('button', { name: 'Import 2 rows' }) as HTMLButtonElement;
    expect(commit.disabled).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: /Skip the 1 row with errors/ }));
    expect(commit.disabled).toBe(false);
    await user.click(commit);

    await waitFor(() => expect(api.callsTo('CommitImport')).toHaveLength(1));
    expect(api.lastCallTo('CommitImport')?.body).toEqual({ importCode: 'IMP-1', skipErrors: 'true' });
    expect(
      await screen.findByText(/people\.csv was imported into employees, leaving out 1 row with errors\./),
    ).toBeTruthy();
    expect(screen.getByText('Skipped with errors')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open Employees' }).getAttribute('href')).toBe(
      '/registry/employees',
    );
  });

  it('after a 409 says nothing was written and checks the file again', async () => {
    const user = userEvent.setup();
    const clean = record({
      errors: [],
      errorCount: 0,
      counts: { rows: 2, create: 1, update: 1, unchanged: 0, errors: 0, skipped: 0 },
      sample: record().sample.filter((s) => s.action !== 'error'),
    });
    const api = renderImport('/imports/IMP-1', {
      GetImportByCode: ok(clean),
      CommitImport: { statusCode: 409, message: IMPORT_MESSAGES.stale },
      CheckImport: reply(() => ok({ ...clean, counts: { ...clean.counts, update: 0, unchanged: 1 } })),
    });
    await user.click(await screen.findByRole('button', { name: 'Import 2 rows' }));
    expect(await screen.findByText(IMPORT_MESSAGES.stale)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(api.callsTo('CheckImport')).toHaveLength(1));
    expect(api.lastCallTo('CheckImport')?.body).toMatchObject({
      importCode: 'IMP-1',
      mode: 'upsert',
      mapping: JSON.stringify(clean.mapping),
    });
    expect(await screen.findByRole('button', { name: 'Import 1 row' })).toBeTruthy();
    expect(screen.queryByText(IMPORT_MESSAGES.stale)).toBeNull();
  });
});

describe('the upload', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('sends the file with the module and mode, then shows the mapping', async () => {
    const user = userEvent.setup();
    const api = renderImport('/imports/new?module=employee', {
      StartImport: ok(record(), IMPORT_MESSAGES.started),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Import Employees' })).toBeTruthy();
    const file = new File(['Employee Id,Name\nE-1,Ada\n'], 'people.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('Spreadsheet file'), file);
    expect(screen.getByText('people.csv')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Upload and check' }));
    await waitFor(() => expect(api.callsTo('StartImport')).toHaveLength(1));
    const call = api.lastCallTo('StartImport');
    expect(call?.body).toMatchObject({ module: 'employee', mode: 'upsert' });
    expect(call?.files.file?.name).toBe('people.csv');
    expect(await screen.findByRole('table', { name: 'Column mapping' })).toBeTruthy();
  });

  it('refuses a file that is no spreadsheet before sending it', async () => {
    const api = renderImport('/imports/new?module=employee', {});
    const input = await screen.findByLabelText('Spreadsheet file');
    fireEvent.change(input, { target: { files: [new File(['x'], 'photo.png', { type: 'image/png' })] } });
    expect(await screen.findByText(IMPORT_MESSAGES.fileType)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Upload and check' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(api.callsTo('StartImport')).toHaveLength(0);
  });
});
