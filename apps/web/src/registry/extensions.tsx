import InsightsIcon from '@mui/icons-material/InsightsOutlined';
import { AuditView } from './audit/AuditView';
import { actionLabel, auditHeadline, auditRecordLabel, moduleLabel } from './audit/auditText';
import { ProfileForm } from './profile/ProfileForm';
import { profileChangesSince } from './profile/profileValues';
import type { ResourceExtensions } from './resourceExtension';
import { UserSecurityPanel } from './user/UserSecurityPanel';
import { UserSsoPanel } from './user/UserSsoPanel';

/** Every module's difference from what its definition describes, in one place. */
export const EXTENSIONS = {
  // The change side by side, and a way to the record it is about, which also names the entry.
  // Its list and filters say actions, modules and records in words, as its view does.
  audit: {
    form: AuditView,
    recordName: auditHeadline,
    cells: {
      action: (entry) => actionLabel(entry.action),
      collection: (entry) => moduleLabel(entry.collection),
      recordCode: auditRecordLabel,
    },
    choiceLabels: { action: actionLabel, collection: moduleLabel },
  },
  // A user manager's view of where the user is signed in, and of their single sign-on.
  user: { viewPanels: { security: UserSecurityPanel, sso: UserSsoPanel } },
  // The picture and the nested address; a delete compares them as the form does.
  profile: { form: ProfileForm, deleteChanges: profileChangesSince },
  // An employee's scores over time live on the Performance Snapshot's insight page.
  employee: {
    links: [
      {
        label: 'Performance insight',
        icon: InsightsIcon,
        permission: 'VIEW_PERFORMANCES',
        to: (code) => `/performance-snapshot/employees/${encodeURIComponent(code)}`,
      },
    ],
  },
} satisfies ResourceExtensions;
