import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PerformanceRow } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { DENSITY_STORAGE_KEY } from '../../src/performance/columns';
import { ok, SCREEN_TEST_TIMEOUT } from '../registry/harness';
import { cell, renderGrid, resetGridAfterEach, startEditing } from './renderGrid';

const LONG = 'Documentation and record keeping';
const TITLES = ['Accuracy', LONG, 'Speed'];
const name = (i: number) => `Person ${String(i).padStart(3, '0')}`;

/** A day of 301 people; each row has the scores given, Accuracy first. */
const person = (i: number, scores: (number | null)[] = [null, null, null]): PerformanceRow => ({
  performanceCode: null,
  version: null,
  employeeCode: `EMP-${i}`,
  employeeId: `E-${i}`,
  employeeName: name(i),
  date: '2024-03-05',
  skills: TITLES.map((title, c) => ({ skillCode: `SKILL-${c}`, title, score: scores[c] ?? null })),
  total: { daily: null, monthly: null, yearly: null },
});
// The first two rows are fully scored, the third has its Speed scored.
const DAY = Array.from({ length: 301 }, (_, i) =>
  i < 2 ? person(i, [5, 6, 7]) : i === 2 ? person(i, [null, null, 8]) : person(i),
);

// Drawn rows are 49 px high: the scroll box shows about a dozen, and those around them.
const renderPage = () =>
  renderGrid({
    rows: DAY,
    pageSize: 10,
    rowHeight: 49,
    handlers: { CreateUpdatePerformances: ok([], 'Performances saved successfully') },
  });

resetGridAfterEach();

describe('editing the whole day', () => {
  it(
    'loads every row of the day, draws only those in view, and pastes into rows beyond them',
    async () => {
      const user = userEvent.setup();
      const api = renderPage();
      await startEditing(user);
      expect(api.lastCallTo('GetPerformanceReport')?.query).toEqual({
        date: '2024-03-05',
        sortField: 'name',
        sortValue: 'asc',
      });
      // No pager while the whole day is on screen; the last people are not drawn.
      expect(screen.queryByText(/Rows per page/)).toBeNull();
      expect(screen.queryByRole('rowheader', { name: name(40) })).toBeNull();
      // 40 lines of a spreadsheet column: rows 3 to 42, most of them not drawn.
      const block = Array.from({ length: 40 }, (_, i) => String(i % 11)).join('\n');
      fireEvent.paste(cell('Accuracy', name(3)), { clipboardData: { getData: () => `${block}\n` } });
      await screen.findByText('40 rows changed');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findByText('Performances saved successfully');
      const body = api.lastCallTo('CreateUpdatePerformances')?.body ?? {};
      expect(body['performances[0][employeeCode]']).toBe('EMP-3');
      expect(body['performances[39][employeeCode]']).toBe('EMP-42');
      expect(body['performances[39][performancePerSkill][0][pointsEarned]']).toBe(String(39 % 11));
      expect(body['performances[40][employeeCode]']).toBeUndefined();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'Tab from the last cell to fill goes to the next row with an empty cell; Ctrl+Enter and the button go to the next unscored',
    async () => {
      const user = userEvent.setup();
      renderPage();
      await startEditing(user);
      await waitFor(() => expect(document.activeElement).toBe(cell('Accuracy', name(0))));
      // Person 000 and 001 are fully scored: on to Person 002's first empty cell.
      await user.keyboard('{Tab}');
      expect(document.activeElement).toBe(cell('Accuracy', name(2)));
      // An empty cell follows in the row: Tab keeps the page order.
      await user.keyboard('4{Tab}');
      expect(document.activeElement).toBe(cell(LONG, name(2)));
      // Typed, nothing is left to fill after it (Speed is scored): the next row's first empty cell.
      await user.keyboard('6{Tab}');
      expect(document.activeElement).toBe(cell('Accuracy', name(3)));
      // Shift+Tab mirrors it: from a row's first cell to the previous row's last empty cell.
      cell('Accuracy', name(4)).focus();
      await user.keyboard('{Shift>}{Tab}{/Shift}');
      expect(document.activeElement).toBe(cell('Speed', name(3)));

      cell('Speed', name(0)).focus();
      await user.keyboard('{Control>}{Enter}{/Control}');
      expect(document.activeElement).toBe(cell('Accuracy', name(3)));
      await user.keyboard('{Control>}{Enter}{/Control}');
      expect(document.activeElement).toBe(cell(LONG, name(3)));
      await user.click(screen.getByRole('button', { name: 'Next unscored' }));
      expect(document.activeElement).toBe(cell('Speed', name(3)));
      expect(screen.getByText(/to the next unscored cell/)).toBeTruthy();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'ellipsises a long skill title, whole on hover, and remembers compact rows',
    async () => {
      const user = userEvent.setup();
      renderPage();
      const header = await screen.findByRole('columnheader', { name: LONG });
      expect(header.getAttribute('title')).toBe(LONG);
      const style = getComputedStyle(header);
      expect([style.textOverflow, style.whiteSpace, style.overflow]).toEqual([
        'ellipsis',
        'nowrap',
        'hidden',
      ]);
      await user.click(screen.getByRole('switch', { name: 'Compact rows' }));
      expect(window.localStorage.getItem(DENSITY_STORAGE_KEY)).toBe('compact');
    },
    SCREEN_TEST_TIMEOUT,
  );
});
