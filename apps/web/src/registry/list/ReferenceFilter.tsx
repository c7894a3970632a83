import Box from '@mui/material/Box';
import { type ListFilterDef, RESOURCE_BY_KEY, type ResourceDef } from '@wfc/contract';
import { useCan } from '../../auth/auth';
import { useRecordQuery } from '../queries';
import { ResourceSelect } from '../select/ResourceSelect';

interface Props {
  filter: ListFilterDef;
  /** The chosen record's code, as the address carries it; '' for any. */
  value: string;
  onChange(code: string): void;
}

/** The chosen record's name, read once: the address carries only its code. */
function useChosenName(source: ResourceDef, code: string): string {
  const record = useRecordQuery(source, code);
  const name = record.data?.data?.[source.nameField];
  return typeof name === 'string' && name ? name : code;
}

/**
 * A reference filter (Department on Employees): the referenced module's records by name, as the
 * form's selector offers them. Offered to those who may view that module.
 */
export function ReferenceFilter({ filter, value, onChange }: Props) {
  const source = filter.source ? RESOURCE_BY_KEY[filter.source] : undefined;
  const can = useCan();
  if (!source || !can(source.permissions.view)) return null;
  return <ChosenReference source={source} filter={filter} value={value} onChange={onChange} />;
}

function ChosenReference({ source, filter, value, onChange }: Props & { source: ResourceDef }) {
  const label = useChosenName(source, value);
  return (
    <Box sx={{ flex: { xs: '1 1 180px', sm: '0 1 220px' }, minWidth: 0 }}>
      <ResourceSelect
        source={source}
        inputId={`filter-${filter.param}`}
        label={filter.label}
        dense
        value={value ? { value, label } : null}
        onChange={(option) => onChange(option?.value ?? '')}
      />
    </Box>
  );
}
