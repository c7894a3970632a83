import Box from '@mui/material/Box';
import type { FormFieldDef, ResourceDef } from '@wfc/contract';
import type { ReactNode } from 'react';
import type { Control, FieldErrors } from 'react-hook-form';
import type { DelegatedField } from './delegation';
import { errorAt } from './fieldErrors';
import { FieldInput } from './fields/FieldInput';
import type { FormValues } from './formValues';

interface Props {
  def: ResourceDef;
  fields: readonly FormFieldDef[];
  control: Control<FormValues>;
  errors: FieldErrors<FormValues>;
  delegatedOf(field: FormFieldDef): DelegatedField;
  /** A selector others depend on took a new value: they must be chosen again. */
  onParentChange(name: string): void;
  /** Shown under a field (a selector's offer to create its record). */
  below?(field: FormFieldDef, delegated: DelegatedField): ReactNode;
}

/** A definition's form fields, each with its error and what its delegation rules make of it. */
export function FormFields({ def, fields, control, errors, delegatedOf, onParentChange, below }: Props) {
  return fields.map((field) => {
    const delegated = delegatedOf(field);
    return (
      <Box key={field.name}>
        <FieldInput
          def={def}
          field={field}
          fields={fields}
          control={control}
          delegated={delegated}
          error={errorAt(errors, field.name)}
          onParentChange={onParentChange}
        />
        {below?.(field, delegated)}
      </Box>
    );
  });
}
