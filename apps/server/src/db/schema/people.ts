import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './access.ts';
import { bytea, createdAt, id, lower, trgm, updatedAt, version } from './columns.ts';
import { cities, countries, departments, genders, states } from './reference.ts';

export const employees = pgTable(
  'employees',
  {
    id: id(),
    employeeCode: text('employee_code').notNull().unique(),
    employeeId: text('employee_id').notNull(),
    name: text('name').notNull(),
    departmentCode: text('department_code')
      .notNull()
      .references(() => departments.departmentCode, { onDelete: 'restrict' }),
    joinDate: date('join_date', { mode: 'string' }).notNull(),
    userCode: text('user_code').references(() => users.userCode, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    uniqueIndex('employees_employee_id_unique').on(lower(t.employeeId)),
    uniqueIndex('employees_user_unique').on(t.userCode).where(sql`${t.userCode} is not null`),
    index('employees_department').on(t.departmentCode, t.id),
    index('employees_name_trgm').using('gin', trgm(t.name)),
    index('employees_employee_id_trgm').using('gin', trgm(t.employeeId)),
    index('employees_name').on(t.name),
  ],
);

/**
 * The employees who manage a department: a manager's team is the department's employees
 * (docs/product.md section 6). Looked up by manager (whose team?) and by department (its record).
 */
export const departmentManagers = pgTable(
  'department_managers',
  {
    departmentCode: text('department_code')
      .notNull()
      .references(() => departments.departmentCode, { onDelete: 'cascade' }),
    employeeCode: text('employee_code')
      .notNull()
      .references(() => employees.employeeCode, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.departmentCode, t.employeeCode] }),
    index('department_managers_employee').on(t.employeeCode, t.departmentCode),
  ],
);

export const profiles = pgTable(
  'profiles',
  {
    id: id(),
    profileCode: text('profile_code').notNull().unique(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    dob: date('dob', { mode: 'string' }).notNull(),
    genderCode: text('gender_code')
      .notNull()
      .references(() => genders.genderCode, { onDelete: 'restrict' }),
    phoneNumber: text('phone_number'),
    addressLineOne: text('address_line_one'),
    addressLineTwo: text('address_line_two'),
    countryCode: text('country_code').references(() => countries.countryCode, { onDelete: 'restrict' }),
    stateCode: text('state_code').references(() => states.stateCode, { onDelete: 'restrict' }),
    cityCode: text('city_code').references(() => cities.cityCode, { onDelete: 'restrict' }),
    postalCode: text('postal_code'),
    linkedin: text('linkedin'),
    twitter: text('twitter'),
    facebook: text('facebook'),
    instagram: text('instagram'),
    websitePortfolioUrl: text('website_portfolio_url'),
    notifyEmail: boolean('notify_email').notNull().default(false),
    notifySms: boolean('notify_sms').notNull().default(false),
    notifyPush: boolean('notify_push').notNull().default(false),
    userCode: text('user_code')
      .notNull()
      .references(() => users.userCode, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    uniqueIndex('profiles_user_unique').on(t.userCode),
    index('profiles_first_name_trgm').using('gin', trgm(t.firstName)),
    index('profiles_last_name_trgm').using('gin', trgm(t.lastName)),
    // The list's keyword searches the phone number too: without it, that branch scans every profile.
    index('profiles_phone_number_trgm').using('gin', trgm(t.phoneNumber)),
    index('profiles_gender').on(t.genderCode),
    index('profiles_country').on(t.countryCode),
    index('profiles_state').on(t.stateCode),
    index('profiles_city').on(t.cityCode),
  ],
);

/** Pictures live in the database so that every server instance can serve them. */
export const profilePictures = pgTable('profile_pictures', {
  profileCode: text('profile_code')
    .primaryKey()
    .references(() => profiles.profileCode, { onDelete: 'cascade' }),
  original: bytea('original').notNull(),
  thumbnail: bytea('thumbnail').notNull(),
  contentType: text('content_type').notNull(),
  filename: text('filename').notNull(),
  extension: text('extension').notNull(),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
