import { base, en, Faker } from '@faker-js/faker';
import { DEPARTMENTS, type DemoRoleKey, type GENDERS } from './catalogue.ts';

export interface DemoPerson {
  firstName: string;
  lastName: string;
  gender: (typeof GENDERS)[number];
  username: string;
  email: string;
  role: DemoRoleKey;
  employeeId: string;
  department: string;
  joinDate: string;
  dob: string;
  phoneNumber: string;
  addressLineOne: string;
  addressLineTwo: string | null;
  postalCode: string;
  /** Index into the list of cities the caller offers, modulo its length. */
  cityPick: number;
  linkedin: string | null;
  twitter: string | null;
  facebook: string | null;
  instagram: string | null;
  websitePortfolioUrl: string | null;
  notifyEmail: boolean;
  notifySms: boolean;
  notifyPush: boolean;
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const handle = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

/**
 * The same people on every run (a private, seeded faker), so that a second run finds them by
 * username and adds nothing. Each department's first person manages it; a few are in HR.
 */
export function demoPeople(count: number, seed = 20240101): DemoPerson[] {
  const f = new Faker({ locale: [en, base] });
  f.seed(seed);
  const refDate = new Date('2025-01-01T00:00:00Z');
  const taken = new Set<string>();
  const people: DemoPerson[] = [];
  for (let i = 0; i < count; i++) {
    const roll = f.number.float({ min: 0, max: 1 });
    const gender: DemoPerson['gender'] =
      roll < 0.48 ? 'Female' : roll < 0.96 ? 'Male' : roll < 0.99 ? 'Non-binary' : 'Prefer not to say';
    const sex = gender === 'Female' ? 'female' : gender === 'Male' ? 'male' : f.person.sexType();
    const firstName = f.person.firstName(sex);
    const lastName = f.person.lastName();
    let username = `${handle(firstName)}.${handle(lastName)}`;
    for (let n = 2; taken.has(username); n++) username = `${handle(firstName)}.${handle(lastName)}${n}`;
    taken.add(username);
    const department = DEPARTMENTS[i % DEPARTMENTS.length] ?? DEPARTMENTS[0];
    const role: DemoRoleKey = i < DEPARTMENTS.length ? 'manager' : i % 25 === 7 ? 'hr' : 'employee';
    const social = f.number.float({ min: 0, max: 1 });
    people.push({
      firstName,
      lastName,
      gender,
      username,
      email: `${username}@example.com`,
      role,
      employeeId: `E${String(10001 + i)}`,
      department,
      joinDate: day(f.date.between({ from: '2012-01-01', to: '2024-12-31' })),
      dob: day(f.date.birthdate({ mode: 'age', min: 21, max: 64, refDate })),
      phoneNumber: f.phone.number({ style: 'international' }),
      addressLineOne: f.location.streetAddress(),
      addressLineTwo: f.datatype.boolean(0.3) ? f.location.secondaryAddress() : null,
      postalCode: f.location.zipCode(),
      cityPick: f.number.int({ min: 0, max: 1_000_000 }),
      linkedin: social < 0.8 ? `https://www.linkedin.com/in/${username.replace('.', '-')}` : null,
      twitter: social < 0.3 ? `https://x.com/${username.replace('.', '_')}` : null,
      facebook: social < 0.2 ? `https://www.facebook.com/${username}` : null,
      instagram: social < 0.25 ? `https://www.instagram.com/${username.replace('.', '_')}` : null,
      websitePortfolioUrl: social < 0.1 ? `https://${handle(lastName)}.example.net` : null,
      notifyEmail: f.datatype.boolean(0.9),
      notifySms: f.datatype.boolean(0.3),
      notifyPush: f.datatype.boolean(0.5),
    });
  }
  return people;
}
