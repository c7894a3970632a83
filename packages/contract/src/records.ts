/** Response shapes (SPEC.md section 3). Dates are ISO strings; references nest `{code, name}`. */

export interface Timestamps {
  createdAt: string;
  updatedAt: string;
}

export interface PermissionRef {
  permissionCode: string;
  permissionName: string;
}

export interface PermissionRecord extends PermissionRef {
  permissionDescription: string;
  createdAt: string;
}

export interface RoleRecord extends Timestamps {
  roleCode: string;
  roleName: string;
  roleDescription: string | null;
  rolePermissions: PermissionRef[];
}

export interface UserRecord extends Timestamps {
  userCode: string;
  username: string;
  email: string;
  role: { roleCode: string; roleName: string } | null;
}

/** The signed-in user: login and GetSession answers. */
export interface SessionUser extends Timestamps {
  userCode: string;
  username: string;
  email: string;
  role: RoleRecord | null;
}

export interface AuditRecord {
  auditCode: string;
  action: string;
  collection: string;
  before: unknown;
  after: unknown;
  changes: Record<string, { old: unknown; new: unknown }> | null;
  user: { userCode: string; username: string } | null;
  createdAt: string;
}

export interface GenderRecord extends Timestamps {
  genderCode: string;
  genderName: string;
}

export interface CountryRecord extends Timestamps {
  countryCode: string;
  name: string;
  iso2: string;
  iso3: string;
}

export interface StateRecord extends Timestamps {
  stateCode: string;
  name: string;
  iso: string;
  country: { countryCode: string; name: string };
}

export interface CityRecord extends Timestamps {
  cityCode: string;
  name: string;
  state: { stateCode: string; name: string };
  country: { countryCode: string; name: string };
}

export interface DepartmentRecord extends Timestamps {
  departmentCode: string;
  name: string;
}

export interface SkillRecord extends Timestamps {
  skillCode: string;
  title: string;
  description: string | null;
}

export interface EmployeeRecord extends Timestamps {
  employeeCode: string;
  employeeId: string;
  name: string;
  department: { departmentCode: string; name: string };
  joinDate: string;
  user: { userCode: string; username: string } | null;
}

export interface ProfileRecord extends Timestamps {
  profileCode: string;
  firstName: string;
  lastName: string;
  profilePicture: { thumbnail: string; filename: string; extension: string } | null;
  dob: string;
  gender: { genderCode: string; genderName: string };
  phoneNumber: string | null;
  address: {
    addressLineOne: string | null;
    addressLineTwo: string | null;
    country: { countryCode: string; name: string } | null;
    state: { stateCode: string; name: string } | null;
    city: { cityCode: string; name: string } | null;
    postalCode: string | null;
  };
  social: {
    linkedin: string | null;
    twitter: string | null;
    facebook: string | null;
    instagram: string | null;
    websitePortfolioUrl: string | null;
  };
  notification: { email: boolean; sms: boolean; push: boolean };
  user: { userCode: string; username: string };
}
