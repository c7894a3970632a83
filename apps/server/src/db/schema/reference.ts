import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, lower, trgm, updatedAt, version } from './columns.ts';

export const genders = pgTable(
  'genders',
  {
    id: id(),
    genderCode: text('gender_code').notNull().unique(),
    genderName: text('gender_name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [uniqueIndex('genders_name_unique').on(lower(t.genderName))],
);

export const departments = pgTable(
  'departments',
  {
    id: id(),
    departmentCode: text('department_code').notNull().unique(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    uniqueIndex('departments_name_unique').on(lower(t.name)),
    index('departments_name_trgm').using('gin', trgm(t.name)),
  ],
);

export const skills = pgTable(
  'skills',
  {
    id: id(),
    skillCode: text('skill_code').notNull().unique(),
    title: text('title').notNull(),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [uniqueIndex('skills_title_unique').on(lower(t.title))],
);

export const countries = pgTable(
  'countries',
  {
    id: id(),
    countryCode: text('country_code').notNull().unique(),
    name: text('name').notNull(),
    iso2: text('iso2').notNull(),
    iso3: text('iso3').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    uniqueIndex('countries_name_unique').on(lower(t.name)),
    uniqueIndex('countries_iso2_unique').on(lower(t.iso2)),
    uniqueIndex('countries_iso3_unique').on(lower(t.iso3)),
    index('countries_name_trgm').using('gin', trgm(t.name)),
  ],
);

export const states = pgTable(
  'states',
  {
    id: id(),
    stateCode: text('state_code').notNull().unique(),
    name: text('name').notNull(),
    iso: text('iso').notNull(),
    countryCode: text('country_code')
      .notNull()
      .references(() => countries.countryCode, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    uniqueIndex('states_iso_unique').on(t.countryCode, lower(t.iso)),
    index('states_country').on(t.countryCode, t.id),
    index('states_name_trgm').using('gin', trgm(t.name)),
  ],
);

export const cities = pgTable(
  'cities',
  {
    id: id(),
    cityCode: text('city_code').notNull().unique(),
    name: text('name').notNull(),
    stateCode: text('state_code')
      .notNull()
      .references(() => states.stateCode, { onDelete: 'restrict' }),
    countryCode: text('country_code')
      .notNull()
      .references(() => countries.countryCode, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    index('cities_state').on(t.stateCode, t.id),
    index('cities_country').on(t.countryCode, t.id),
    index('cities_name_trgm').using('gin', trgm(t.name)),
    index('cities_name').on(t.name),
  ],
);
