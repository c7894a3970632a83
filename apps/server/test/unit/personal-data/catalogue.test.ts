import { getTableName } from 'drizzle-orm';
import { getTableConfig, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as schema from '../../../src/db/schema/index.ts';
import { catalogueGaps, PERSONAL_TABLES } from '../../../src/personal-data/catalogue.ts';
import { SERVER_RESOURCES } from '../../../src/resources/index.ts';

describe('the personal-data catalogue', () => {
  it('classifies every column of every stored table about a person, and names nothing that is not there', () => {
    expect(catalogueGaps(schema)).toEqual([]);
  });

  it('finds a new table that refers to a person, through another table too', () => {
    const payslips = pgTable('payslips', {
      payslipCode: text('payslip_code'),
      employeeCode: text('employee_code').references(() => schema.employees.employeeCode),
      net: integer('net'),
    });
    const payslipLines = pgTable('payslip_lines', {
      payslipCode: text('payslip_code').references(() => payslips.payslipCode),
      amount: integer('amount'),
    });
    expect(catalogueGaps({ ...schema, payslips, payslipLines })).toEqual([
      'payslips.payslip_code',
      'payslips.employee_code',
      'payslips.net',
      'payslip_lines.payslip_code',
      'payslip_lines.amount',
    ]);
  });

  it('finds a column added to a table it already lists', () => {
    // The stored table's own columns (their types do not matter here) and one more.
    const columns = getTableConfig(schema.users).columns.map((c) => [c.name, text(c.name)]);
    const users = pgTable('users', { ...Object.fromEntries(columns), homePhone: text('home_phone') });
    expect(catalogueGaps({ ...schema, users })).toEqual(['users.home_phone']);
  });

  it('finds a column or a table it names that is not stored', () => {
    const sessions = PERSONAL_TABLES.sessions;
    if (!sessions) throw new Error('sessions are catalogued');
    const catalogue = {
      ...PERSONAL_TABLES,
      sessions: { ...sessions, columns: { ...sessions.columns, device: 'personal' as const } },
      payslips: { label: 'Payslips', about: 'employee' as const, columns: {} },
    };
    expect(catalogueGaps(schema, catalogue)).toEqual(['sessions.device', 'payslips']);
  });
});

describe("the records' personal fields", () => {
  const people = new Set(['users', 'employees', 'profiles']);

  it('are stated by every module whose records are people, for every field of the record', () => {
    const stated = SERVER_RESOURCES.filter((res) => people.has(getTableName(res.table)));
    expect(stated.map((res) => res.def.key).sort()).toEqual(['employee', 'profile', 'user']);
    for (const { def } of stated) {
      const shape = (def.recordSchema as z.ZodObject).shape;
      expect(Object.keys(def.personal?.fields ?? {}).sort(), def.key).toEqual(Object.keys(shape).sort());
    }
  });

  it('name an owner path the record has', () => {
    for (const { def } of SERVER_RESOURCES) {
      if (!def.personal) continue;
      const [head] = def.personal.owner.split('.');
      expect(Object.keys((def.recordSchema as z.ZodObject).shape), def.key).toContain(head);
    }
  });

  it('are stated only by those modules', () => {
    const others = SERVER_RESOURCES.filter((res) => !people.has(getTableName(res.table)));
    expect(others.filter((res) => res.def.personal).map((res) => res.def.key)).toEqual([]);
  });
});
