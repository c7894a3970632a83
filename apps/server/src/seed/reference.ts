import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { departments, genders, permissions, rolePermissions, roles, skills } from '../db/schema/index.ts';
import { DEMO_ROLES, DEPARTMENTS, type DemoRole, GENDERS } from './catalogue.ts';
import { codeSql, jsonRecords } from './sql.ts';

/** Genders, departments and the given skills; existing names are kept. */
export async function insertReferenceData(
  tx: Executor,
  skillList: readonly { title: string; description: string }[],
) {
  await tx.execute(sql`insert into ${genders} (gender_code, gender_name)
    select ${codeSql('GENDER-')}, r.name from ${jsonRecords(
      GENDERS.map((name) => ({ name })),
      sql`name text`,
    )} on conflict do nothing`);
  await tx.execute(sql`insert into ${departments} (department_code, name)
    select ${codeSql('DEPT-')}, r.name from ${jsonRecords(
      DEPARTMENTS.map((name) => ({ name })),
      sql`name text`,
    )} on conflict do nothing`);
  await tx.execute(sql`insert into ${skills} (skill_code, title, description)
    select ${codeSql('SKILL-')}, r.title, r.description
    from ${jsonRecords(skillList, sql`title text, description text`)}
    order by r.title
    on conflict do nothing`);
}

/** Permissions are granted only to roles created now, so a later edit of a demo role survives a re-run. */
export async function insertRoles(tx: Executor) {
  const grants = Object.values(DEMO_ROLES).flatMap((r: DemoRole) =>
    r.permissions.map((p) => ({ role: r.roleName, permission: p, scope: r.scopes?.[p] ?? 'all' })),
  );
  await tx.execute(sql`with created as (
      insert into ${roles} (role_code, role_name, role_description)
      select ${codeSql('ROLE-')}, r.name, r.description
      from ${jsonRecords(
        Object.values(DEMO_ROLES).map((r) => ({ name: r.roleName, description: r.roleDescription })),
        sql`name text, description text`,
      )}
      on conflict do nothing
      returning role_code, role_name)
    insert into ${rolePermissions} (role_code, permission_code, scope)
    select c.role_code, p.permission_code, r.scope
    from ${jsonRecords(grants, sql`role text, permission text, scope text`)}
    join created c on c.role_name = r.role
    join ${permissions} p on p.permission_name = r.permission`);
}
