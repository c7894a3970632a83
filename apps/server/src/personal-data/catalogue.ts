import { getTableName, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';

/**
 * Every stored column about a person, and how it counts (docs/privacy.md). The records the API
 * answers say the same of their fields in their definitions (`personal`); this is the stored side,
 * which an access request exports, an erasure removes and a retention purge ages out.
 *
 * - `personal`: what the console knows about the person (their name, their scores, their address);
 * - `secret`: their credentials (a password hash, a two-factor secret): removed with them, never exported;
 * - `link`: the column that ties the row to the person;
 * - `false`: nothing about the person (codes of other records, times the row was kept).
 */
export type StoredKind = 'personal' | 'secret' | 'link' | false;

export interface PersonalTable {
  /** What the rows are, as the access request's summary heads them. */
  label: string;
  /**
   * What the `link` column holds: a user's, an employee's or a profile's code, an employee's row
   * id, a day of scores' code, or a sign-in throttle key naming the account (docs/security.md).
   */
  about: 'user' | 'employee' | 'employee row' | 'profile' | 'performance' | 'account';
  /** A column naming a record by its code: the row is also about the person when it names one of theirs. */
  records?: string;
  columns: Readonly<Record<string, StoredKind>>;
}

const times = { created_at: false, updated_at: false, version: false } as const;

export const PERSONAL_TABLES: Readonly<Record<string, PersonalTable>> = {
  users: {
    label: 'User account',
    about: 'user',
    columns: {
      id: false,
      user_code: 'link',
      username: 'personal',
      email: 'personal',
      password_hash: 'secret',
      role_code: false,
      sso_linking: false,
      active: false,
      // The identity provider's id for the person: it identifies them as their username does.
      external_id: 'personal',
      ...times,
    },
  },
  profiles: {
    label: 'Profile',
    about: 'user',
    columns: {
      id: false,
      profile_code: false,
      first_name: 'personal',
      last_name: 'personal',
      dob: 'personal',
      gender_code: 'personal',
      phone_number: 'personal',
      address_line_one: 'personal',
      address_line_two: 'personal',
      country_code: 'personal',
      state_code: 'personal',
      city_code: 'personal',
      postal_code: 'personal',
      linkedin: 'personal',
      twitter: 'personal',
      facebook: 'personal',
      instagram: 'personal',
      website_portfolio_url: 'personal',
      notify_email: 'personal',
      notify_sms: 'personal',
      notify_push: 'personal',
      user_code: 'link',
      ...times,
    },
  },
  profile_pictures: {
    label: 'Profile picture',
    about: 'profile',
    columns: {
      profile_code: 'link',
      original: 'personal',
      thumbnail: 'personal',
      content_type: false,
      filename: 'personal',
      extension: false,
      version: false,
      updated_at: false,
    },
  },
  // An employee may have no user: then its own code is what names the person.
  employees: {
    label: 'Employee records',
    about: 'user',
    records: 'employee_code',
    columns: {
      id: false,
      employee_code: false,
      employee_id: 'personal',
      name: 'personal',
      department_code: false,
      join_date: 'personal',
      user_code: 'link',
      ...times,
    },
  },
  department_managers: {
    label: 'Departments managed',
    about: 'employee',
    columns: { department_code: 'personal', employee_code: 'link' },
  },
  sessions: {
    label: 'Sessions',
    about: 'user',
    columns: {
      id_hash: 'secret',
      session_code: false,
      user_code: 'link',
      created_at: 'personal',
      last_seen_at: 'personal',
      expires_at: false,
      ip: 'personal',
      user_agent: 'personal',
    },
  },
  mfa_challenges: {
    label: 'Two-factor sign-ins under way',
    about: 'user',
    columns: { id_hash: 'secret', user_code: 'link', created_at: false, expires_at: false },
  },
  mfa_recovery_codes: {
    label: 'Two-factor recovery codes',
    about: 'user',
    columns: { user_code: 'link', code_hash: 'secret' },
  },
  user_mfa: {
    label: 'Two-factor sign-in',
    about: 'user',
    columns: {
      user_code: 'link',
      secret: 'secret',
      enabled_at: 'personal',
      last_step: false,
      created_at: false,
    },
  },
  sso_identities: {
    label: 'Single sign-on accounts',
    about: 'user',
    columns: {
      issuer: 'personal',
      subject: 'personal',
      user_code: 'link',
      provider_username: 'personal',
      created_at: 'personal',
      last_used_at: 'personal',
    },
  },
  // Who acted is linked by code without a foreign key, so that the trail outlives the user; the
  // entries about a person's records hold their values in `before`, `after` and `changes`.
  audits: {
    label: 'Audit log entries by or about the person',
    about: 'user',
    records: 'record_code',
    columns: {
      id: false,
      audit_code: false,
      action: false,
      collection: false,
      record_code: false,
      before: 'personal',
      after: 'personal',
      changes: 'personal',
      user_code: 'link',
      username: 'personal',
      request_id: false,
      created_at: 'personal',
    },
  },
  // The recycle bin: a deleted record about the person (their profile, an employee record) waits
  // here, found by its user or by its own code. Its stored rows may hold credentials (a deleted
  // user's password hash), so only the record as the API answered it is exported.
  deleted_records: {
    label: 'Deleted records waiting in the recycle bin',
    about: 'user',
    records: 'record_code',
    columns: {
      id: false,
      collection: false,
      record_code: false,
      name: 'personal',
      owner_code: 'link',
      record: 'personal',
      rows: 'secret',
      deleted_at: 'personal',
    },
  },
  // Keys name a username and an address tried at sign-in (docs/security.md).
  login_throttle: {
    label: 'Sign-in attempts',
    about: 'account',
    columns: {
      key: 'link',
      max_attempts: false,
      attempts: 'personal',
      refused: 'personal',
      last_attempt_at: 'personal',
      blocked_until: 'personal',
      signed_in_at: 'personal',
    },
  },
  performances: {
    label: 'Performance days',
    about: 'employee',
    columns: {
      id: false,
      performance_code: false,
      employee_code: 'link',
      date: 'personal',
      daily_average: 'personal',
      month_sum: 'personal',
      month_days: 'personal',
      ...times,
    },
  },
  performance_scores: {
    label: 'Performance scores',
    about: 'performance',
    columns: { performance_code: 'link', skill_code: 'personal', points: 'personal' },
  },
  performance_months: {
    label: 'Monthly averages',
    about: 'employee',
    columns: {
      employee_code: 'link',
      month: 'personal',
      day_sum: 'personal',
      day_count: 'personal',
      year_sum: 'personal',
      year_days: 'personal',
    },
  },
  performance_month_days: {
    label: 'Days scored per month',
    about: 'employee',
    columns: { employee_code: 'link', month: 'personal', days: 'personal' },
  },
  performance_skill_months: {
    label: 'Monthly skill totals',
    about: 'employee row',
    columns: {
      employee_id: 'link',
      month: 'personal',
      skill_id: 'personal',
      points_sum: 'personal',
      scored: 'personal',
    },
  },
  performance_bucket_changes: {
    label: 'Score band changes',
    about: 'employee',
    columns: { employee_code: 'link', date: 'personal', bucket: 'personal', previous: 'personal' },
  },
};

/** The tables that name a person by themselves; every table that refers to one of them does too. */
const PEOPLE = ['users', 'employees', 'profiles'] as const;

/** Tables about people without a foreign key saying so: their entries are written out above. */
const UNLINKED = ['audits', 'login_throttle', 'deleted_records'] as const;

/**
 * What the catalogue misses or misnames, as `table.column` (or `table` for a table it names that
 * does not exist): every column of a table about a person must be classified, so a column added
 * later cannot escape an access request or an erasure unnoticed. A table is about a person when it
 * is one of `PEOPLE`, refers to one by a foreign key (through any number of tables), or is `UNLINKED`.
 */
export function catalogueGaps(
  schema: Readonly<Record<string, unknown>>,
  catalogue: Readonly<Record<string, PersonalTable>> = PERSONAL_TABLES,
): string[] {
  const configs = Object.values(schema)
    .filter((t): t is PgTable => is(t, PgTable))
    .map((t) => getTableConfig(t));
  const refers = new Map(
    configs.map((c) => [c.name, c.foreignKeys.map((f) => getTableName(f.reference().foreignTable))]),
  );
  const aboutPeople = new Set<string>([...PEOPLE, ...UNLINKED]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, targets] of refers) {
      if (!aboutPeople.has(name) && targets.some((t) => aboutPeople.has(t))) {
        aboutPeople.add(name);
        grew = true;
      }
    }
  }
  const gaps: string[] = [];
  for (const c of configs) {
    const entry = catalogue[c.name];
    const columns = c.columns.map((col) => col.name);
    if (aboutPeople.has(c.name)) {
      for (const col of columns) if (!entry || !(col in entry.columns)) gaps.push(`${c.name}.${col}`);
    }
    const named = [...Object.keys(entry?.columns ?? {}), ...(entry?.records ? [entry.records] : [])];
    for (const col of named) if (!columns.includes(col)) gaps.push(`${c.name}.${col}`);
  }
  const names = new Set(configs.map((c) => c.name));
  for (const name of Object.keys(catalogue)) if (!names.has(name)) gaps.push(name);
  return gaps;
}
