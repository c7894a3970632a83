import {
  cityCreateSchema,
  cityUpdateSchema,
  countryCreateSchema,
  countryUpdateSchema,
  createUpdatePerformancesSchema,
  departmentCreateSchema,
  departmentUpdateSchema,
  employeeCreateSchema,
  employeeUpdateSchema,
  genderCreateSchema,
  genderUpdateSchema,
  profileCreateSchema,
  profileUpdateSchema,
  roleCreateSchema,
  roleUpdateSchema,
  skillCreateSchema,
  skillUpdateSchema,
  stateCreateSchema,
  stateUpdateSchema,
  userCreateSchema,
  userUpdateSchema,
} from '@wfc/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { code, inputs, junk } from './arbitraries.ts';

type Input = Record<string, unknown>;

/** Every create and update schema, with the generator of its valid input and its name fields. */
const SCHEMAS: {
  name: string;
  create: ZodType;
  update: ZodType;
  valid: fc.Arbitrary<Input>;
  codeField: [string, string];
  texts: [string, number][];
}[] = [
  {
    name: 'gender',
    create: genderCreateSchema,
    update: genderUpdateSchema,
    valid: inputs.gender,
    codeField: ['genderCode', 'GENDER-'],
    texts: [['genderName', 100]],
  },
  {
    name: 'department',
    create: departmentCreateSchema,
    update: departmentUpdateSchema,
    valid: inputs.department,
    codeField: ['departmentCode', 'DEPT-'],
    texts: [['name', 100]],
  },
  {
    name: 'skill',
    create: skillCreateSchema,
    update: skillUpdateSchema,
    valid: inputs.skill,
    codeField: ['skillCode', 'SKILL-'],
    texts: [
      ['title', 100],
      ['description', 500],
    ],
  },
  {
    name: 'country',
    create: countryCreateSchema,
    update: countryUpdateSchema,
    valid: inputs.country,
    codeField: ['countryCode', 'COUNTRY-'],
    texts: [['name', 100]],
  },
  {
    name: 'state',
    create: stateCreateSchema,
    update: stateUpdateSchema,
    valid: inputs.state,
    codeField: ['stateCode', 'STATE-'],
    texts: [['name', 100]],
  },
  {
    name: 'city',
    create: cityCreateSchema,
    update: cityUpdateSchema,
    valid: inputs.city,
    codeField: ['cityCode', 'CITY-'],
    texts: [['name', 100]],
  },
  {
    name: 'role',
    create: roleCreateSchema,
    update: roleUpdateSchema,
    valid: inputs.role,
    codeField: ['roleCode', 'ROLE-'],
    texts: [
      ['roleName', 100],
      ['roleDescription', 500],
    ],
  },
  {
    name: 'user',
    create: userCreateSchema,
    update: userUpdateSchema,
    valid: inputs.user,
    codeField: ['userCode', 'USER-'],
    texts: [],
  },
  {
    name: 'employee',
    create: employeeCreateSchema,
    update: employeeUpdateSchema,
    valid: inputs.employee,
    codeField: ['employeeCode', 'EMP-'],
    texts: [['name', 150]],
  },
  {
    name: 'profile',
    create: profileCreateSchema,
    update: profileUpdateSchema,
    valid: inputs.profile,
    codeField: ['profileCode', 'PROFILE-'],
    texts: [
      ['firstName', 100],
      ['lastName', 100],
    ],
  },
];

const forUpdate = (s: (typeof SCHEMAS)[number]) =>
  fc
    .tuple(s.valid, code(s.codeField[1]))
    .map(([v, c]) => ({ ...v, [s.codeField[0]]: c, isProfilePictureChanged: 'false' }));

describe('create and update schemas of the contract', () => {
  for (const s of SCHEMAS) {
    describe(s.name, () => {
      it('accept every valid input, trimming its text', () => {
        fc.assert(
          fc.property(s.valid, forUpdate(s), (create, update) => {
            const c = s.create.safeParse(create);
            expect(c.success, JSON.stringify(c.error?.issues)).toBe(true);
            const u = s.update.safeParse(update);
            expect(u.success, JSON.stringify(u.error?.issues)).toBe(true);
            const out = c.data as Input;
            for (const [field] of s.texts) {
              if (typeof create[field] === 'string')
                expect(out[field]).toBe((create[field] as string).trim());
            }
          }),
          { numRuns: 300 },
        );
      });

      it('refuse text beyond its maximum length, naming the field', () => {
        fc.assert(
          fc.property(s.valid, fc.integer({ min: 1, max: 50 }), (valid, extra) => {
            for (const [field, max] of s.texts) {
              const res = s.create.safeParse({ ...valid, [field]: 'x'.repeat(max + extra) });
              expect(res.success).toBe(false);
              expect(res.error?.issues.map((i) => i.path.join('.'))).toContain(field);
            }
          }),
          { numRuns: 50 },
        );
      });

      it('never throw, whatever they are given', () => {
        fc.assert(
          fc.property(junk, (value) => {
            expect(() => s.create.safeParse(value)).not.toThrow();
            expect(() => s.update.safeParse(value)).not.toThrow();
          }),
          { numRuns: 300 },
        );
      });

      it('drop unknown fields, so a body cannot set what the form does not offer', () => {
        fc.assert(
          fc.property(s.valid, (valid) => {
            const res = s.create.safeParse({
              ...valid,
              passwordHash: 'x',
              id: 1,
              createdAt: '2000-01-01',
              [s.codeField[0]]: 'EVIL',
            });
            expect(res.success).toBe(true);
            const out = res.data as Input;
            expect(out).not.toHaveProperty('passwordHash');
            expect(out).not.toHaveProperty('id');
            expect(out).not.toHaveProperty('createdAt');
            if (s.name !== 'user' && s.name !== 'profile') expect(out).not.toHaveProperty(s.codeField[0]);
          }),
          { numRuns: 50 },
        );
      });
    });
  }

  it('performance saves: valid rows accepted, scores outside 0..10 refused per row and skill', () => {
    fc.assert(
      fc.property(inputs.performances, (body) => {
        expect(createUpdatePerformancesSchema.safeParse(body).success).toBe(true);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        inputs.performances,
        fc.oneof(fc.integer({ min: 11 }), fc.integer({ max: -1 }), fc.constant('1.5'), fc.constant('ten')),
        (body, bad) => {
          const rows = body.performances;
          fc.pre(rows[0]!.performancePerSkill.length > 0);
          rows[0]!.performancePerSkill[0]!.pointsEarned = String(bad);
          const res = createUpdatePerformancesSchema.safeParse(body);
          expect(res.success).toBe(false);
          expect(res.error?.issues[0]?.path.slice(0, 4)).toEqual([
            'performances',
            0,
            'performancePerSkill',
            0,
          ]);
        },
      ),
      { numRuns: 100 },
    );
    fc.assert(
      fc.property(junk, (value) => {
        expect(() => createUpdatePerformancesSchema.safeParse(value)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
