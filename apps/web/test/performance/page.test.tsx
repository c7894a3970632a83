import { fireEvent, screen, waitFor, waitForElementToBeRemoved, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PerformanceRow } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { ok, reply, SCREEN_TEST_TIMEOUT, type Stub } from '../registry/harness';
import { cell, EDITOR, renderGrid, resetGridAfterEach, startEditing } from './renderGrid';

const skills = (scores: (number | null)[]) =>
  ['Accuracy', 'Speed'].map((title, i) => ({ skillCode: `SKILL-${title}`, title, score: scores[i] ?? null }));
const ROWS: PerformanceRow[] = [
  {
    performanceCode: 'PERF-1',
    version: 2,
    employeeCode: 'EMP-1',
    employeeId: 'E-001',
    employeeName: 'Ann Lee',
    date: '2024-03-05',
    skills: skills([7, null]),
    total: { daily: 7, monthly: 6.5, yearly: 6.25 },
  },
  {
    performanceCode: null,
    version: null,
    employeeCode: 'EMP-2',
    employeeId: 'E-002',
    employeeName: 'Bo Chan',
    date: '2024-03-05',
    skills: skills([null, null]),
    total: { daily: null, monthly: null, yearly: null },
  },
];

const renderPage = (permissions: string[], handlers: Record<string, Stub>, path?: string) =>
  renderGrid({ permissions, rows: ROWS, handlers, path });

resetGridAfterEach();

describe('the performance screen', () => {
  it(
    'shows the columns, scores and two-decimal averages, and asks the server for the chosen date',
    async () => {
      const api = renderPage(['VIEW_PERFORMANCES'], {});
      const ann = await screen.findByRole('rowheader', { name: 'Ann Lee' });
      expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
        'Employee Id',
        'Employee Name',
        'Accuracy',
        'Speed',
        'Daily Average',
        'Monthly Average',
        'Yearly Average',
      ]);
      const cells = within(ann.closest('tr') as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent);
      expect(cells).toEqual(['E-001', '7', '–None', '7.00', '6.50', '6.25']);
      // Empty values (the keyword) are left out of the query string.
      expect(api.lastCallTo('GetPerformances')?.query).toEqual({
        date: '2024-03-05',
        sortField: 'name',
        sortValue: 'asc',
        page: '1',
        limit: '10',
      });
      // Without both edit permissions there is no Edit button.
      expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
      expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'reverts an invalid entry, saves only the changed rows and returns to read mode',
    async () => {
      const user = userEvent.setup();
      const api = renderPage(EDITOR, {
        CreateUpdatePerformances: ok([], 'Performances saved successfully'),
      });
      await startEditing(user);
      const speed = cell('Speed', 'Bo Chan');
      await user.click(speed);
      await user.keyboard('4');
      await user.keyboard('2');
      expect((speed as HTMLInputElement).value).toBe('4');
      await screen.findByText(/"42" was reverted/);
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findByText('Performances saved successfully');
      const body = api.lastCallTo('CreateUpdatePerformances')?.body ?? {};
      expect(body).toEqual({
        'performances[0][employeeCode]': 'EMP-2',
        'performances[0][date]': '2024-03-05',
        // No saved row was seen: null, which the form encoding sends empty.
        'performances[0][version]': '',
        'performances[0][performancePerSkill][0][skillCode]': 'SKILL-Accuracy',
        'performances[0][performancePerSkill][0][pointsEarned]': '',
        'performances[0][performancePerSkill][0][totalPoints]': '10',
        'performances[0][performancePerSkill][1][skillCode]': 'SKILL-Speed',
        'performances[0][performancePerSkill][1][pointsEarned]': '4',
        'performances[0][performancePerSkill][1][totalPoints]': '10',
      });
      await screen.findByRole('button', { name: 'Edit' });
      expect(screen.queryByRole('textbox', { name: /score for/ })).toBeNull();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'on a refused save shows the server message, stays in edit mode and marks the refused cell',
    async () => {
      const user = userEvent.setup();
      renderPage(EDITOR, {
        CreateUpdatePerformances: reply(() => ({
          statusCode: 400,
          message: 'Invalid input',
          errors: [{ field: 'performances.0.performancePerSkill.0.pointsEarned', message: 'Too high' }],
        })),
      });
      await startEditing(user);
      await user.clear(cell('Accuracy', 'Ann Lee'));
      await user.type(cell('Accuracy', 'Ann Lee'), '9');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findByText('Invalid input');
      expect(cell('Accuracy', 'Ann Lee').getAttribute('aria-invalid')).toBe('true');
      expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'moves with the keyboard and pastes a tab-separated block',
    async () => {
      const user = userEvent.setup();
      renderPage(EDITOR, {});
      await startEditing(user);
      await waitFor(() => expect(document.activeElement).toBe(cell('Accuracy', 'Ann Lee')));
      await user.keyboard('{Enter}');
      expect(document.activeElement).toBe(cell('Accuracy', 'Bo Chan'));
      await user.keyboard('{ArrowUp}{ArrowRight}');
      expect(document.activeElement).toBe(cell('Speed', 'Ann Lee'));
      fireEvent.paste(cell('Accuracy', 'Ann Lee'), {
        clipboardData: { getData: () => '1\t2\n3\t11\n' },
      });
      expect((cell('Speed', 'Ann Lee') as HTMLInputElement).value).toBe('2');
      expect((cell('Accuracy', 'Bo Chan') as HTMLInputElement).value).toBe('3');
      expect((cell('Speed', 'Bo Chan') as HTMLInputElement).value).toBe('');
      await screen.findByText('2 rows changed');
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'asks before discarding unsaved changes on Cancel',
    async () => {
      const user = userEvent.setup();
      renderPage(EDITOR, {});
      await startEditing(user);
      await user.click(cell('Speed', 'Ann Lee'));
      await user.keyboard('3');
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      const dialog = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
      await user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
      await waitForElementToBeRemoved(() => screen.queryByRole('dialog'));
      expect((cell('Speed', 'Ann Lee') as HTMLInputElement).value).toBe('3');
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      await user.click(
        within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard changes' }),
      );
      await screen.findByRole('button', { name: 'Edit' });
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'on a stale save merges the current row, highlights the cell both changed, and saves once it is settled',
    async () => {
      const user = userEvent.setup();
      // Someone else saved Ann Lee meanwhile: Accuracy 7 -> 8, as version 3.
      const current: PerformanceRow = { ...ROWS[0]!, version: 3, skills: skills([8, null]) };
      const message =
        'Scores of Ann Lee were changed by ann at 2024-03-05 10:00:00 UTC since you opened this date';
      let saves = 0;
      const api = renderPage(EDITOR, {
        CreateUpdatePerformances: reply(() =>
          ++saves === 1
            ? { statusCode: 409, message, data: [current] }
            : ok([], 'Performances saved successfully'),
        ),
      });
      await startEditing(user);
      await user.clear(cell('Accuracy', 'Ann Lee'));
      await user.type(cell('Accuracy', 'Ann Lee'), '9');
      await user.type(cell('Speed', 'Ann Lee'), '5');
      await user.type(cell('Speed', 'Bo Chan'), '4');
      await user.click(screen.getByRole('button', { name: 'Save' }));

      const alert = (await screen.findByText(message)).closest('[role="alert"]') as HTMLElement;
      expect(alert.textContent).toContain('1 cell you both changed is highlighted');
      const accuracy = cell('Accuracy', 'Ann Lee') as HTMLInputElement;
      expect(accuracy.value).toBe('9');
      const describedBy = accuracy.getAttribute('aria-describedby') ?? '';
      expect(document.getElementById(describedBy)?.textContent).toBe(
        'Changed by someone else to 8; yours is 9.',
      );
      // Cells only this user changed are kept; another row is not touched.
      expect((cell('Speed', 'Ann Lee') as HTMLInputElement).value).toBe('5');
      expect((cell('Speed', 'Bo Chan') as HTMLInputElement).value).toBe('4');

      // The cell may be scrolled out of sight: the alert leads to it.
      await user.click(screen.getByRole('button', { name: 'Go to the highlighted cell' }));
      expect(document.activeElement).toBe(accuracy);

      // Not while a conflict is open.
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findByText('Choose their value or yours in the highlighted cell before saving.');
      expect(api.callsTo('CreateUpdatePerformances')).toHaveLength(1);

      await user.click(screen.getByRole('button', { name: 'Theirs: 8, for Accuracy score for Ann Lee' }));
      expect(accuracy.value).toBe('8');
      expect(accuracy.getAttribute('aria-describedby')).toBeNull();
      expect(alert.textContent).toContain('Check the scores and save again.');
      expect(screen.queryByRole('button', { name: /Go to the/ })).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findByText('Performances saved successfully');
      expect(api.lastCallTo('CreateUpdatePerformances')?.body).toMatchObject({
        'performances[0][employeeCode]': 'EMP-1',
        'performances[0][version]': '3',
        'performances[0][performancePerSkill][0][pointsEarned]': '8',
        'performances[0][performancePerSkill][1][pointsEarned]': '5',
        'performances[1][employeeCode]': 'EMP-2',
        'performances[1][version]': '',
      });
      expect(screen.queryByText(message)).toBeNull();
    },
    SCREEN_TEST_TIMEOUT,
  );
});
