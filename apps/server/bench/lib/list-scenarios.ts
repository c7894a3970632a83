import { auditResource } from '@wfc/contract';
import { audits$, permissions$, roles$, users$ } from '../../src/resources/definitions/access.ts';
import { cities$, countries$, states$ } from '../../src/resources/definitions/geography.ts';
import { employees$, profiles$ } from '../../src/resources/definitions/people.ts';
import { departments$, genders$, skills$ } from '../../src/resources/definitions/reference.ts';
import type { ServerResource } from '../../src/resources/server-resource.ts';
import type { ListRequest } from './capture.ts';

export interface ListScenario extends ListRequest {
  name: string;
}

/** A date this many days before today, as the audit filters take it. */
export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** The endpoint of the resource's sub-list by `parent`. */
function subList(res: ServerResource, parent: string): string {
  const sub = res.parentFilters.find((f) => f.parent === parent);
  if (!sub) throw new Error(`${res.def.label} is not listed by ${parent}`);
  return sub.endpoint;
}

const sorted = (field: string, keyword: string) => ({
  keyword,
  sortField: field,
  sortValue: 'asc',
  page: '1',
  limit: '10',
});

/**
 * Every list the issue names, uncached, page 1 with its exact total: each module with a keyword
 * (a common one and, for the cities, a rare one and one matching nothing), the sub-lists, the
 * selectors (the lookup view) and the audit filters. Parents and the audited user are picked from
 * the data (`pick` answers a query's first value, `v`), so the same scenarios run on demo and on
 * benchmark data, and in the tests.
 */
export async function listScenarios(pick: (query: string) => Promise<string>): Promise<ListScenario[]> {
  const username = await pick('select username as v from users order by id offset 100 limit 1');
  const role = await pick(
    `select role_code as v from role_permissions group by role_code order by count(*) desc, role_code limit 1`,
  );
  const country = await pick(
    'select country_code as v from states group by country_code order by count(*) desc, country_code limit 1',
  );
  const cityCountry = await pick(
    'select country_code as v from cities group by country_code order by count(*) desc, country_code limit 1',
  );
  const state = await pick(
    'select state_code as v from cities group by state_code order by count(*) desc, state_code limit 1',
  );
  const department = await pick(
    'select department_code as v from employees group by department_code order by count(*) desc, department_code limit 1',
  );
  const audit = auditResource.endpoints.list;
  return [
    { name: 'GetPermissions `user`', res: permissions$, query: sorted('permissionName', 'user') },
    { name: 'GetRoles `man`', res: roles$, query: sorted('roleName', 'man') },
    { name: 'GetUsers `son` (and role names)', res: users$, query: sorted('username', 'son') },
    { name: 'GetProfiles `son` (and gender, user)', res: profiles$, query: sorted('firstName', 'son') },
    { name: 'GetGenders `male`', res: genders$, query: sorted('genderName', 'male') },
    { name: 'GetCountries `an`', res: countries$, query: sorted('name', 'an') },
    { name: 'GetStates `san` (and country names)', res: states$, query: sorted('name', 'san') },
    { name: 'GetCities `san` (and state, country names)', res: cities$, query: sorted('name', 'san') },
    { name: 'GetCities `kyo` (rare)', res: cities$, query: sorted('name', 'kyo') },
    { name: 'GetCities `zzq` (no match)', res: cities$, query: sorted('name', 'zzq') },
    { name: 'GetDepartments `en`', res: departments$, query: sorted('name', 'en') },
    { name: 'GetSkills `an`', res: skills$, query: sorted('title', 'an') },
    {
      name: 'GetEmployees `son` (and department, user)',
      res: employees$,
      query: sorted('name', 'son'),
    },
    {
      name: "a role's permissions `view`",
      res: permissions$,
      query: sorted('permissionName', 'view'),
      sub: { endpoint: subList(permissions$, 'role'), code: role },
    },
    {
      name: "a country's states `a`",
      res: states$,
      query: sorted('name', 'a'),
      sub: { endpoint: subList(states$, 'country'), code: country },
    },
    {
      name: "a state's cities `an`",
      res: cities$,
      query: sorted('name', 'an'),
      sub: { endpoint: subList(cities$, 'state'), code: state },
    },
    {
      name: "a country's cities `san`",
      res: cities$,
      query: sorted('name', 'san'),
      sub: { endpoint: subList(cities$, 'country'), code: cityCountry },
    },
    {
      name: "a department's employees `son`",
      res: employees$,
      query: sorted('name', 'son'),
      sub: { endpoint: subList(employees$, 'department'), code: department },
    },
    { name: 'selector: cities `san`', res: cities$, query: sorted('name', 'san'), lookup: true },
    {
      name: "selector: a state's cities `an`",
      res: cities$,
      query: sorted('name', 'an'),
      sub: { endpoint: subList(cities$, 'state'), code: state },
      lookup: true,
    },
    { name: 'selector: users `son`', res: users$, query: sorted('username', 'son'), lookup: true },
    {
      name: `${audit} keyword: a username`,
      res: audits$,
      query: { keyword: username, sortField: 'createdAt', sortValue: 'desc', page: '1', limit: '10' },
    },
    {
      name: `${audit} keyword: \`schultz\``,
      res: audits$,
      query: { keyword: 'schultz', sortField: 'createdAt', sortValue: 'desc', page: '1', limit: '10' },
    },
    {
      name: `${audit} keyword: \`delete\` (an action)`,
      res: audits$,
      query: { keyword: 'delete', sortField: 'createdAt', sortValue: 'desc', page: '1', limit: '10' },
    },
    {
      name: `${audit} filter: a user, 90 days`,
      res: audits$,
      query: { username, from: daysAgo(90), page: '1', limit: '10' },
    },
    {
      name: `${audit} filter: module, action, a month`,
      res: audits$,
      query: {
        collection: 'roles',
        action: 'DELETE',
        from: daysAgo(60),
        to: daysAgo(30),
        page: '1',
        limit: '10',
      },
    },
    {
      name: `${audit} filter: a module and an action that never meet`,
      res: audits$,
      query: { collection: 'genders', action: 'LOGIN', page: '1', limit: '10' },
    },
    {
      name: `${audit} filter: module, action + \`schultz\``,
      res: audits$,
      query: { collection: 'employees', action: 'UPDATE', keyword: 'schultz', page: '1', limit: '10' },
    },
  ];
}
