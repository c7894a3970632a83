import { ALL_PERMISSION_NAMES, type PermissionName, type PermissionScope } from '@wfc/contract';

export const GENDERS = ['Female', 'Male', 'Non-binary', 'Prefer not to say'] as const;

export const DEPARTMENTS = [
  'Engineering',
  'Sales',
  'Marketing',
  'Finance',
  'Human Resources',
  'Customer Support',
  'Operations',
  'Legal',
  'Product',
  'Quality Assurance',
  'Logistics',
  'Procurement',
] as const;

export const SKILLS: readonly { title: string; description: string }[] = [
  { title: 'Attendance', description: 'Present and on time for scheduled work' },
  { title: 'Communication', description: 'Clear written and spoken updates to colleagues and customers' },
  { title: 'Teamwork', description: 'Helps others and shares knowledge' },
  { title: 'Problem Solving', description: 'Finds the cause of an issue and fixes it' },
  { title: 'Time Management', description: 'Plans work and meets deadlines' },
  { title: 'Quality of Work', description: 'Accurate, complete and careful output' },
  { title: 'Productivity', description: 'Volume of work delivered for the day' },
  { title: 'Customer Focus', description: 'Understands and serves customer needs' },
  { title: 'Initiative', description: 'Acts without waiting to be asked' },
  { title: 'Adaptability', description: 'Copes well with change and new priorities' },
  { title: 'Technical Knowledge', description: 'Command of the tools and methods of the role' },
  { title: 'Leadership', description: 'Guides and motivates others' },
  { title: 'Safety Compliance', description: 'Follows safety rules and procedures' },
  { title: 'Documentation', description: 'Keeps records and documents up to date' },
  { title: 'Creativity', description: 'Brings new ideas and better ways of working' },
  { title: 'Reliability', description: 'Does what was promised' },
  { title: 'Learning', description: 'Builds new skills and applies them' },
  { title: 'Conflict Resolution', description: 'Settles disagreements constructively' },
  { title: 'Attention to Detail', description: 'Catches mistakes before they spread' },
  { title: 'Professionalism', description: 'Conduct that reflects well on the company' },
];

// Personal data beyond names is for those who need to know it (docs/privacy.md): named where given.
const viewAll = ALL_PERMISSION_NAMES.filter((p) => p.startsWith('VIEW_') && p !== 'VIEW_PERSONAL_DATA');
const crud = (...modules: string[]) =>
  ALL_PERMISSION_NAMES.filter((p) =>
    modules.some((m) => p === `CREATE_${m}` || p === `UPDATE_${m}` || p === `DELETE_${m}`),
  );

export interface DemoRole {
  roleName: string;
  roleDescription: string;
  permissions: readonly PermissionName[];
  /** Permissions held for fewer than all records; every other is held for all. */
  scopes?: Partial<Record<PermissionName, PermissionScope>>;
}

/** Each of `names` held at `scope`: a role's scopes, written once with its permissions. */
const heldAt = <P extends PermissionName>(scope: PermissionScope, names: readonly P[]) => ({
  permissions: names,
  scopes: Object.fromEntries(names.map((n) => [n, scope])),
});

/** Roles people hold in the demo; the Administrator role comes from bootstrap. */
export const DEMO_ROLES = {
  manager: {
    roleName: 'Manager',
    roleDescription: 'Runs a department: manages people records and records performance',
    permissions: [
      ...viewAll.filter((p) => p !== 'VIEW_AUDITS'),
      ...crud('PROFILE', 'EMPLOYEE', 'DEPARTMENT', 'SKILL'),
      'CREATE_PERFORMANCE',
      'UPDATE_PERFORMANCE',
    ],
  },
  hr: {
    roleName: 'HR Officer',
    roleDescription: 'Keeps users, profiles and employee records up to date, and answers access requests',
    // Erasure stays with the Administrator: it cannot be undone.
    permissions: [
      ...viewAll,
      ...crud('USER', 'PROFILE', 'EMPLOYEE', 'DEPARTMENT', 'GENDER'),
      'VIEW_PERSONAL_DATA',
      'EXPORT_PERSONAL_DATA',
    ],
  },
  viewer: {
    roleName: 'Viewer',
    roleDescription: 'Reads the registry and the performance snapshot',
    permissions: viewAll.filter((p) => p !== 'VIEW_AUDITS' && p !== 'VIEW_PERMISSIONS' && p !== 'VIEW_ROLES'),
  },
  teamLead: {
    roleName: 'Team Lead',
    roleDescription: 'Sees and scores the employees of the departments they manage',
    ...heldAt('team', [
      'VIEW_EMPLOYEES',
      'VIEW_PROFILES',
      'VIEW_PERFORMANCES',
      'CREATE_PERFORMANCE',
      'UPDATE_PERFORMANCE',
    ]),
  },
  employee: {
    roleName: 'Employee',
    roleDescription: 'Self-service: their own profile, employee record and scores',
    ...heldAt('own', ['VIEW_PROFILES', 'UPDATE_PROFILE', 'VIEW_EMPLOYEES', 'VIEW_PERFORMANCES']),
  },
} satisfies Record<string, DemoRole>;

export type DemoRoleKey = keyof typeof DEMO_ROLES;

/** One password for every generated user: hashing it once keeps seeding fast (argon2id is slow on purpose). */
export const DEMO_PASSWORD = 'demo-password-1';
