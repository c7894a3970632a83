import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { RESOURCE_BY_KEY, type ResourceKey } from '@wfc/contract';
import type { ReactNode } from 'react';
import type { Control } from 'react-hook-form';
import { SelectInput } from '../record/fields/SelectInput';
import { TextInput, type TextKind } from '../record/fields/TextInput';
import type { SelectParent } from '../select/ResourceSelect';
import { type ProfileField, type ProfileValues, profileInputId } from './profileValues';

/** A titled group of the profile form, its fields on a two-column grid from md up. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="h3" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Grid container spacing={2.5}>
        {children}
      </Grid>
    </Box>
  );
}

export function Cell({ children, wide }: { children: ReactNode; wide?: boolean }) {
  return <Grid size={{ xs: 12, md: wide ? 12 : 6 }}>{children}</Grid>;
}

/** What every section of the profile form works with. */
export interface ProfileFormParts {
  control: Control<ProfileValues>;
  /** The message shown under a field, if any. */
  errorOf(name: ProfileField): string | undefined;
}

/** A text field in its cell, through the forms' shared text input. */
export function TextCell({
  form,
  name,
  label,
  kind,
}: {
  form: ProfileFormParts;
  name: ProfileField;
  label: string;
  kind?: TextKind;
}) {
  return (
    <Cell>
      <TextInput
        control={form.control}
        name={name}
        id={profileInputId(name)}
        label={label}
        kind={kind}
        error={form.errorOf(name)}
      />
    </Cell>
  );
}

/** A selector over another module's list in its cell, through the forms' shared selector. */
export function SelectCell({
  form,
  name,
  label,
  source,
  disabled = false,
  parent,
  onPicked,
}: {
  form: ProfileFormParts;
  name: ProfileField;
  label: string;
  source: ResourceKey;
  disabled?: boolean;
  parent?: SelectParent;
  onPicked?(changed: boolean): void;
}) {
  return (
    <Cell>
      <SelectInput
        control={form.control}
        name={name}
        source={RESOURCE_BY_KEY[source]}
        inputId={profileInputId(name)}
        label={label}
        disabled={disabled}
        parent={parent}
        error={form.errorOf(name)}
        onPicked={onPicked}
      />
    </Cell>
  );
}
