import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDate } from '../../src/ui/dates';
import { profileRecord } from '../support/profile';
import { ok, renderRegistry, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';
import { findLoadedScreen, readValue } from './loaded';

const EMPLOYEE = {
  employeeCode: 'EMP-1',
  employeeId: 'E-100',
  name: 'Dana Reyes',
  department: { departmentCode: 'DEPARTMENT-1', name: 'Assembly' },
  joinDate: '2023-03-09',
  user: null,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  version: 1,
};

const ROLE = {
  roleCode: 'ROLE-1',
  roleName: 'Auditor',
  roleDescription: null,
  requireMfa: false,
  rolePermissions: [{ permissionCode: 'PERM-1', permissionName: 'VIEW_AUDITS' }],
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  version: 1,
};

resetScreensAfterEach();

/** What shows right under the screen's title. */
const underTitle = (title: string) =>
  screen.getByRole('heading', { level: 1, name: title }).nextElementSibling?.textContent;

describe('a view reads its record', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('as label and value pairs: the name under the title, dates in the one format, references as links', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/employee/EMP-1', ['VIEW_EMPLOYEES', 'VIEW_DEPARTMENTS'], {
      GetEmployeeByCode: ok(EMPLOYEE),
      GetDepartmentByCode: ok({ departmentCode: 'DEPARTMENT-1', name: 'Assembly', version: 1 }),
    });
    await findLoadedScreen('View Employee');
    // The record's name right under the title.
    expect(underTitle('View Employee')).toBe('Dana Reyes');
    expect(screen.getByRole('definition', { name: 'Name' }).parentElement?.parentElement?.tagName).toBe('DL');
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(readValue('Employee Id')).toBe('E-100');
    expect(readValue('Join Date')).toBe(formatDate('2023-03-09'));
    // No user: a dash, not an empty box.
    expect(readValue('User')).toBe('—');
    const department = within(screen.getByRole('definition', { name: 'Department' })).getByRole('link', {
      name: 'Assembly',
    });
    await user.click(department);
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/department/DEPARTMENT-1'));
    // Back from the department returns to the employee.
    expect(api.router.state.location.state).toMatchObject({ back: '/registry/employee/EMP-1' });
  });

  it('names a reference without a link for a user who may not view its module', async () => {
    renderRegistry('/registry/employee/EMP-1', ['VIEW_EMPLOYEES'], { GetEmployeeByCode: ok(EMPLOYEE) });
    await findLoadedScreen('View Employee');
    expect(readValue('Department')).toBe('Assembly');
    expect(screen.queryByRole('link', { name: 'Assembly' })).toBeNull();
  });

  it('says a switch as Yes or No and an empty text as a dash', async () => {
    renderRegistry('/registry/role/ROLE-1', ['VIEW_ROLES'], { GetRoleByCode: ok(ROLE) });
    await findLoadedScreen('View Role');
    expect(readValue('Require two-factor sign-in')).toBe('No');
    expect(readValue('Role Description')).toBe('—');
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });

  it("reads a profile: social links open outside, notifications as Yes/No, the address's references", async () => {
    const profile = profileRecord({
      address: {
        addressLineOne: null,
        addressLineTwo: null,
        country: { countryCode: 'COUNTRY-DE', name: 'Germany' },
        state: { stateCode: 'STATE-BY', name: 'Bavaria' },
        city: { cityCode: 'CITY-MUC', name: 'Munich' },
        postalCode: null,
      },
      social: {
        linkedin: 'https://www.linkedin.com/in/amelia',
        twitter: null,
        facebook: null,
        instagram: null,
        websitePortfolioUrl: null,
      },
      profilePicture: null,
    });
    renderRegistry('/registry/profile/PROFILE-1', ['VIEW_PROFILES', 'VIEW_CITIES'], {
      GetProfileByCode: ok(profile),
    });
    await findLoadedScreen('View Profile');
    expect(underTitle('View Profile')).toBe('Amelia Hart');
    const linkedin = within(screen.getByRole('definition', { name: 'LinkedIn' })).getByRole('link');
    expect(linkedin.getAttribute('href')).toBe('https://www.linkedin.com/in/amelia');
    expect(linkedin.getAttribute('target')).toBe('_blank');
    expect(linkedin.getAttribute('rel')).toBe('noopener noreferrer');
    expect(readValue('Twitter')).toBe('—');
    expect(readValue('Email')).toBe('Yes');
    expect(readValue('SMS')).toBe('No');
    expect(readValue('Date of Birth')).toBe(formatDate('1990-04-12'));
    expect(readValue('Phone Number')).toBe('—');
    expect(screen.getByRole('link', { name: 'Munich' }).getAttribute('href')).toBe('/registry/city/CITY-MUC');
    // Countries are not this user's to view: the name alone.
    expect(readValue('Country')).toBe('Germany');
    expect(screen.queryByRole('link', { name: 'Germany' })).toBeNull();
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
  });
});
