import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { type Control, useController, useWatch } from 'react-hook-form';
import type { Option } from '../../select/ResourceSelect';
import type { FormValues } from '../formValues';
import { type ActorScope, type ScopeValues, scopeChoices, scopeValues } from '../scopeChoices';

interface Props {
  control: Control<FormValues>;
  name: string;
  /** The permissions field whose chosen permissions this scopes. */
  of: string;
  id: string;
  label: string;
  /** The scopes the record held when the form opened: they may stay whatever the user holds. */
  kept: ScopeValues;
  actor: ActorScope;
  help?: string;
  /** Why some scopes cannot be chosen, shown when one cannot. */
  limitHelp?: string;
  error?: string;
}

/**
 * How far a role holds each chosen permission on people and scores: one row per permission that
 * can be narrowed, with its scopes side by side. Hidden while none is chosen.
 */
export function ScopesInput({ control, name, of, id, label, kept, actor, help, limitHelp, error }: Props) {
  const { field } = useController({ control, name });
  const chosen = useWatch({ control, name: of });
  const current = scopeValues(field.value);
  const choices = scopeChoices(Array.isArray(chosen) ? (chosen as Option[]) : [], current, kept, actor);
  const missing = choices.filter((c) => current[c.code] !== c.value);

  // A newly chosen permission starts at the widest scope the user may give; the body sends it.
  useEffect(() => {
    if (missing.length === 0) return;
    field.onChange({ ...current, ...Object.fromEntries(missing.map((c) => [c.code, c.value])) });
  });

  if (choices.length === 0) return null;
  const limited = choices.some((c) => c.options.some((o) => o.disabled));
  const helpText = error ?? [help, limited ? limitHelp : undefined].filter(Boolean).join(' ');
  return (
    <FormControl component="fieldset" error={Boolean(error)} sx={{ gridColumn: '1 / -1', minWidth: 0 }}>
      <FormLabel component="legend" id={`${id}-label`} sx={{ mb: 0.5 }}>
        {label}
      </FormLabel>
      {helpText && (
        <FormHelperText id={`${id}-help`} sx={{ mx: 0, mt: 0, mb: 1 }}>
          {helpText}
        </FormHelperText>
      )}
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', rowGap: 1 }}>
        {choices.map((choice) => (
          <Box
            component="li"
            key={choice.code}
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              justifyContent: 'space-between',
              columnGap: 2,
              rowGap: 0.5,
            }}
          >
            <Typography
              id={`${id}-${choice.code}`}
              variant="body2"
              sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}
            >
              {choice.name}
            </Typography>
            <ToggleButtonGroup
              size="small"
              color="primary"
              exclusive
              value={choice.value}
              aria-labelledby={`${id}-${choice.code}`}
              onChange={(_e, scope: unknown) => {
                const picked = scopeValues({ [choice.code]: scope })[choice.code];
                if (picked) field.onChange({ ...current, [choice.code]: picked });
              }}
            >
              {choice.options.map((o) => (
                <ToggleButton
                  key={o.scope}
                  value={o.scope}
                  disabled={o.disabled}
                  sx={{ textTransform: 'none', px: 1.25, py: 0.25 }}
                >
                  {o.label}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Box>
        ))}
      </Box>
    </FormControl>
  );
}
