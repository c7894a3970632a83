import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { historyCsv } from '../../src/self-service/historyCsv';
import { type Call, ok, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from '../registry/harness';
import { employeeUser, historyRow, ME, renderAs } from './support';

const ROWS = [historyRow('2024-03-05', [8, null], 8), historyRow('2024-03-04', [6, 7], 6.5)];

const TREND = {
  from: '2024-02-05',
  to: '2024-03-05',
  employee: {
    employeeCode: ME.employeeCode,
    employeeId: 'E-001',
    name: ME.name,
    department: { departmentCode: ME.departmentCode, name: 'Operations' },
  },
  days: [],
  months: [],
  skills: [{ skillCode: 'SKILL-A', title: 'Quality', average: 7, scored: 2 }],
};

const handlers = {
  GetPerformancesByEmployeeCode: reply((call: Call) =>
    ok(call.query.page === '1' ? ROWS : [], 'Performances fetched successfully', 12),
  ),
  GetPerformancesByDateAndEmployeeCodes: ok([historyRow('2024-03-05', [8, null], 8)]),
  GetPerformanceTrend: ok(TREND, 'Performance trend fetched successfully'),
};

resetScreensAfterEach();

describe('My performance', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('lists my scores by date, paged, with the month and year averages and my skill averages', async () => {
    const api = renderAs('/my/performance', employeeUser(), handlers);
    const table = await screen.findByRole('table', { name: 'My scores by date' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(table).getByRole('rowheader', { name: 'Mar 5, 2024' })).toBeTruthy();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Date', 'Quality', 'Speed, safety', 'Daily Average', 'Monthly Average', 'Yearly Average']);
    expect(screen.getByText('1 - 10 of 12')).toBeTruthy();
    const month = screen.getByRole('region', { name: "This month's average" });
    await waitFor(() => expect(within(month).getByText('7.25')).toBeTruthy());
    expect(
      within(screen.getByRole('region', { name: "This year's average" })).getByText('6.50'),
    ).toBeTruthy();
    expect(await screen.findByRole('table', { name: 'Skill averages' })).toBeTruthy();
    expect(api.lastCallTo('GetPerformancesByEmployeeCode')?.body).toEqual({ employeeCode: ME.employeeCode });
    expect(api.lastCallTo('GetPerformanceTrend')?.body.employeeCode).toBe(ME.employeeCode);
    expect(api.lastCallTo('GetPerformancesByDateAndEmployeeCodes')?.body).toMatchObject({
      'employeeCodes[0]': ME.employeeCode,
    });
    expect(screen.queryByRole('textbox', { name: /score/i })).toBeNull();
  });

  it('is refused to a user without an employee, and without VIEW_PERFORMANCES', async () => {
    const none = renderAs('/my/performance', employeeUser(['VIEW_PERFORMANCES'], { employee: null }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Access Denied' })).toBeTruthy();
    expect(none.callsTo('GetPerformancesByEmployeeCode')).toHaveLength(0);
  });

  it('is refused without VIEW_PERFORMANCES, naming it', async () => {
    renderAs('/my/performance', employeeUser(['VIEW_PROFILES']));
    expect((await screen.findByTestId('missing-permission')).textContent).toContain('VIEW_PERFORMANCES');
  });

  it('refuses someone else’s insight page to a role that sees only its own scores', async () => {
    const app = renderAs('/performance-snapshot/employees/EMP-OTHER', employeeUser(), handlers);
    expect(await screen.findByRole('heading', { level: 1, name: 'Access Denied' })).toBeTruthy();
    expect(app.pathname()).toBe('/access-denied');
    expect(app.callsTo('GetPerformanceTrend')).toHaveLength(0);
  });

  it('opens my own insight page, and anyone’s for a role that sees every score', async () => {
    renderAs(`/performance-snapshot/employees/${ME.employeeCode}`, employeeUser(), handlers);
    expect(await screen.findByRole('heading', { level: 1, name: ME.name })).toBeTruthy();
  });
});

describe('My performance CSV', () => {
  it('has ISO dates, every skill, empty cells for unscored skills and quotes where needed', () => {
    expect(historyCsv(ROWS).split('\r\n')).toEqual([
      'Date,Quality,"Speed, safety",Daily Average,Monthly Average,Yearly Average',
      '2024-03-05,8,,8.00,7.25,6.50',
      '2024-03-04,6,7,6.50,7.25,6.50',
      '',
    ]);
  });
});
