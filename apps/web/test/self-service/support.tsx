import { screen } from '@testing-library/react';
import type { PerformanceRow, SessionUser } from '@wfc/contract';
import { vi } from 'vitest';
import { writeStoredUser } from '../../src/auth/storage';
import { ok, type Stub, stubApi } from '../registry/harness';
import { renderWholeApp } from '../support/app';
import { sessionUser } from '../support/session';

export const ME = { employeeCode: 'EMP-ME', name: 'Amelia Hart', departmentCode: 'DEPT-OPS' };

/** The self-service role of the demo data: its four permissions, each for the user's own records. */
export const SELF_SERVICE = ['VIEW_PROFILES', 'UPDATE_PROFILE', 'VIEW_EMPLOYEES', 'VIEW_PERFORMANCES'];

/** A signed-in employee whose role holds `permissions` at `scope`, linked to ME unless told otherwise. */
export function employeeUser(
  permissions: string[] = SELF_SERVICE,
  opts: { scope?: 'all' | 'own'; employee?: SessionUser['employee'] } = {},
): SessionUser {
  const base = sessionUser(permissions, 'amelia');
  const role = base.role && {
    ...base.role,
    roleName: 'Employee',
    permissionScopes: Object.fromEntries(
      base.role.rolePermissions.map((p) => [p.permissionCode, opts.scope ?? 'own'] as const),
    ),
  };
  return { ...base, role, employee: opts.employee === undefined ? ME : opts.employee };
}

/** The whole app at `path`, signed in as `user`, its calls answered by `handlers`. */
export function renderAs(path: string, user: SessionUser, handlers: Record<string, Stub> = {}) {
  // jsdom has no object URLs (pictures) nor layout (charts).
  URL.createObjectURL = vi.fn(() => 'blob:picture');
  URL.revokeObjectURL = vi.fn();
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  writeStoredUser(user);
  const api = stubApi({ GetSession: ok(user), ...handlers });
  return { ...api, ...renderWholeApp(path) };
}

/** The value a read view gives for `label`. */
export const readOut = (label: string) => screen.getByRole('definition', { name: label }).textContent;

/** A saved date of ME's history with two skills. */
export function historyRow(
  date: string,
  scores: [number | null, number | null],
  daily: number | null,
): PerformanceRow {
  return {
    performanceCode: `PERF-${date}`,
    version: 1,
    employeeCode: ME.employeeCode,
    employeeId: 'E-001',
    employeeName: ME.name,
    date,
    skills: [
      { skillCode: 'SKILL-A', title: 'Quality', score: scores[0] },
      { skillCode: 'SKILL-B', title: 'Speed, safety', score: scores[1] },
    ],
    total: { daily, monthly: 7.25, yearly: 6.5 },
  };
}
