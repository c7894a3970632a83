import { localIsoDate, performanceDateRange } from '@wfc/contract';
import fc from 'fast-check';

/**
 * Generators of valid input for every create and update schema of the contract. Text mixes
 * scripts, accents and astral characters and pads itself with spaces that the schemas trim.
 */
const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const wordChar = fc.constantFrom(
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  'é',
  'ß',
  'ø',
  '李',
  'Ж',
  '😀',
  '-',
  "'",
  '.',
);
const word = fc.string({ unit: wordChar, minLength: 1, maxLength: 12 });
const padding = fc.constantFrom('', ' ', '  ', '\t');

/** Words joined by spaces, at most `max` UTF-16 units once trimmed, padded as users type. */
export const text = (max: number) =>
  fc
    .tuple(padding, fc.array(word, { minLength: 1, maxLength: 6 }), padding)
    .map(([a, words, b]) => `${a}${words.join(' ').slice(0, max).trim() || 'x'}${b}`)
    .filter((s) => !/[\uD800-\uDBFF]$/.test(s.trim()));

export const optionalText = (max: number) => fc.option(text(max), { nil: undefined });

const fixedLetters = (n: number) =>
  fc.string({ unit: fc.constantFrom(...letters), minLength: n, maxLength: n });

export const code = (prefix: string) =>
  fc
    .string({ unit: fc.constantFrom(...'0123456789ABCDEFGHJKMNPQRSTVWXYZ'), minLength: 16, maxLength: 16 })
    .map((s) => `${prefix}${s}`);

export const isoDate = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** A day a score may be recorded for: from 1970 to today, as the contract allows. */
const today = localIsoDate(new Date());
export const performanceDate = fc
  .date({
    min: new Date(`${performanceDateRange(today).earliest}T00:00:00Z`),
    max: new Date(`${today}T00:00:00Z`),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));

export const username = fc.stringMatching(/^[A-Za-z0-9._-]{3,40}$/);
export const email = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9]{1,12}$/),
    fc.stringMatching(/^[a-z0-9]{1,10}$/),
    fc.constantFrom('com', 'org', 'io'),
  )
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
export const password = fc
  .tuple(
    fc.stringMatching(/^[a-z]{1,10}$/),
    fc.stringMatching(/^[0-9]{1,4}$/),
    fc.string({ minLength: 10, maxLength: 40 }),
  )
  .map(([lower, digits, rest]) => `${lower}${digits}${rest}`.slice(0, 128))
  .filter((p) => p.length >= 12 && /[a-z]/.test(p) && /[0-9]/.test(p));
const url = fc.stringMatching(/^[a-z0-9]{1,12}\.[a-z]{2,4}(\/[a-z0-9]{0,10})?$/).map((s) => `https://${s}`);
const bool = fc.constantFrom('true', 'false');

export const inputs = {
  gender: fc.record({ genderName: text(100) }),
  department: fc.record({ name: text(100) }),
  skill: fc.record({ title: text(100), description: optionalText(500) }, { requiredKeys: ['title'] }),
  country: fc.record({ name: text(100), iso2: fixedLetters(2), iso3: fixedLetters(3) }),
  state: fc.record({
    name: text(100),
    iso: fc.stringMatching(/^[A-Za-z0-9-]{1,10}$/),
    countryCode: code('COUNTRY-'),
  }),
  city: fc.record({ name: text(100), countryCode: code('COUNTRY-'), stateCode: code('STATE-') }),
  role: fc.record(
    {
      roleName: text(100),
      roleDescription: optionalText(500),
      rolePermissions: fc.uniqueArray(code('PERM-'), { maxLength: 10 }),
    },
    { requiredKeys: ['roleName', 'rolePermissions'] },
  ),
  user: fc.record({ username, email, password, roleCode: code('ROLE-') }),
  employee: fc.record(
    {
      employeeId: fc.stringMatching(/^[A-Z0-9-]{1,20}$/),
      name: text(150),
      departmentCode: code('DEPT-'),
      joinDate: isoDate,
      userCode: fc.option(code('USER-'), { nil: undefined }),
    },
    { requiredKeys: ['employeeId', 'name', 'departmentCode', 'joinDate'] },
  ),
  profile: fc.record(
    {
      firstName: text(100),
      lastName: text(100),
      phoneNumber: fc.option(fc.stringMatching(/^\+?[0-9]{4,15}$/), { nil: undefined }),
      genderCode: code('GENDER-'),
      dob: isoDate,
      address: fc.record(
        {
          addressLineOne: optionalText(200),
          addressLineTwo: optionalText(200),
          countryCode: fc.option(code('COUNTRY-'), { nil: undefined }),
          postalCode: fc.option(fc.stringMatching(/^[A-Z0-9 -]{1,10}$/), { nil: undefined }),
        },
        { requiredKeys: [] },
      ),
      social: fc.record(
        { linkedin: url, twitter: url, facebook: url, instagram: url, websitePortfolioUrl: url },
        { requiredKeys: [] },
      ),
      notification: fc.record({ email: bool, sms: bool, push: bool }, { requiredKeys: [] }),
      userCode: code('USER-'),
    },
    { requiredKeys: ['firstName', 'lastName', 'genderCode', 'dob', 'userCode'] },
  ),
  performances: fc.record({
    performances: fc.array(
      fc.record({
        employeeCode: code('EMP-'),
        date: performanceDate,
        performancePerSkill: fc.array(
          fc.record({
            skillCode: code('SKILL-'),
            pointsEarned: fc.oneof(fc.constant(''), fc.integer({ min: 0, max: 10 }).map(String)),
            totalPoints: fc.constant('10'),
          }),
          { maxLength: 5 },
        ),
      }),
      { minLength: 1, maxLength: 5 },
    ),
  }),
};

/** Anything a hostile or broken client might send as a body. */
export const junk = fc.oneof(
  fc.anything({ maxDepth: 4, withNullPrototype: true, withObjectString: true }),
  fc.dictionary(
    fc.string({ maxLength: 20 }),
    fc.oneof(fc.string(), fc.array(fc.string()), fc.jsonValue({ maxDepth: 3 })),
  ),
  fc.jsonValue({ maxDepth: 5 }),
);
