import type { ProfileRecord } from '@wfc/contract';
import { EMPTY_CELL } from '../registry/format';
import { NOTIFICATIONS, SOCIAL } from '../registry/profile/profileValues';
import { type ReadEntry, readText, yesNo } from '../registry/record/ReadList';
import { formatDate } from '../ui/dates';
import type { EmployeeRecord } from './useMyProfile';

/*
 * What My profile reads out. References are names, not links: their records are the registry's,
 * which a self-service role does not open.
 */

const date = (iso: string | null | undefined) => (iso ? formatDate(iso) : EMPTY_CELL);

export const personalEntries = (p: ProfileRecord): ReadEntry[] => [
  { label: 'First Name', value: readText(p.firstName) },
  { label: 'Last Name', value: readText(p.lastName) },
  { label: 'Date of Birth', value: date(p.dob) },
  { label: 'Gender', value: readText(p.gender?.genderName) },
  { label: 'Phone Number', value: readText(p.phoneNumber) },
  { label: 'User', value: readText(p.user?.username) },
];

export const employmentEntries = (e: EmployeeRecord): ReadEntry[] => [
  { label: 'Employee Id', value: readText(e.employeeId) },
  { label: 'Name', value: readText(e.name) },
  { label: 'Department', value: readText(e.department?.name) },
  { label: 'Join Date', value: date(e.joinDate) },
];

export const addressEntries = ({ address: a }: ProfileRecord): ReadEntry[] => [
  { label: 'Address Line One', value: readText(a.addressLineOne) },
  { label: 'Address Line Two', value: readText(a.addressLineTwo) },
  { label: 'Country', value: readText(a.country?.name) },
  { label: 'State', value: readText(a.state?.name) },
  { label: 'City', value: readText(a.city?.name) },
  { label: 'Postal Code', value: readText(a.postalCode) },
];

export const notificationEntries = (p: ProfileRecord): ReadEntry[] =>
  NOTIFICATIONS.map((n) => ({ label: n.label, value: yesNo(p.notification[n.name]) }));

/** The social links' labels and values; the view turns them into links. */
export const socialLinks = (p: ProfileRecord) =>
  SOCIAL.map((s) => ({ label: s.label, href: p.social[s.name] }));
