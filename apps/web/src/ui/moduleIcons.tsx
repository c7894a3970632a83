import type { SvgIconComponent } from '@mui/icons-material';
import AccountBoxIcon from '@mui/icons-material/AccountBox';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import ApartmentIcon from '@mui/icons-material/Apartment';
import BadgeIcon from '@mui/icons-material/Badge';
import GroupIcon from '@mui/icons-material/Group';
import HistoryIcon from '@mui/icons-material/History';
import LocationCityIcon from '@mui/icons-material/LocationCity';
import MapIcon from '@mui/icons-material/Map';
import PsychologyIcon from '@mui/icons-material/Psychology';
import PublicIcon from '@mui/icons-material/Public';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import WcIcon from '@mui/icons-material/Wc';
import type { ResourceKey } from '@wfc/contract';

/** One icon per registry module, shared by the Modules screen and the registry screens. */
export const MODULE_ICONS: Record<ResourceKey, SvgIconComponent> = {
  permission: VpnKeyIcon,
  audit: HistoryIcon,
  role: AdminPanelSettingsIcon,
  user: GroupIcon,
  profile: AccountBoxIcon,
  gender: WcIcon,
  country: PublicIcon,
  state: MapIcon,
  city: LocationCityIcon,
  department: ApartmentIcon,
  skill: PsychologyIcon,
  employee: BadgeIcon,
};
