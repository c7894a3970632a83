import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import type { Density } from './columns';
import { FilterForm } from './FilterForm';
import { type GridQuery, withDepartment, withFilter } from './query';

interface Props {
  query: GridQuery;
  onQuery(query: GridQuery): void;
  heatMap: boolean;
  onHeatMap(on: boolean): void;
  density: Density;
  onDensity(density: Density): void;
  editing: boolean;
}

/** Above the grid: its filters, the heat map's switch (off while editing) and the rows' density. */
export function GridToolbar({ query, onQuery, heatMap, onHeatMap, density, onDensity, editing }: Props) {
  return (
    <Box
      sx={{
        p: 2,
        borderBottom: 1,
        borderColor: 'divider',
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1.5,
        alignItems: 'flex-start',
        justifyContent: 'space-between',
      }}
    >
      <FilterForm
        date={query.date}
        keyword={query.keyword}
        departmentCode={query.departmentCode}
        onApply={(date, keyword) => onQuery(withFilter(query, date, keyword))}
        onDepartment={(code) => onQuery(withDepartment(query, code))}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
        <FormControlLabel
          control={<Switch checked={heatMap} onChange={(e) => onHeatMap(e.target.checked)} />}
          label="Heat map"
          disabled={editing}
          sx={{ mr: 0, minHeight: 40 }}
        />
        <FormControlLabel
          control={
            <Switch
              checked={density === 'compact'}
              onChange={(e) => onDensity(e.target.checked ? 'compact' : 'comfortable')}
            />
          }
          label="Compact rows"
          sx={{ mr: 0, minHeight: 40 }}
        />
      </Box>
    </Box>
  );
}
