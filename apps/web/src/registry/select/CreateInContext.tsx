import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import { type FormFieldDef, RESOURCE_BY_KEY, type ResourceDef } from '@wfc/contract';
import { useState } from 'react';
import { type Control, useController } from 'react-hook-form';
import { useCan } from '../../auth/auth';
import type { FormValues } from '../record/formValues';
import { useResourceExtension } from '../resourceExtension';
import { CreateRecordDialog } from './CreateRecordDialog';

interface Props {
  field: FormFieldDef;
  control: Control<FormValues>;
  /** The selector is locked (one's own role): nothing new can be chosen either. */
  locked: boolean;
  /** The selector took the new record: the selectors that depend on it must be chosen again. */
  onChosen(name: string): void;
}

/**
 * "New department…" under a selector of departments: creates one without leaving the form, and
 * chooses it. Offered where the selector stands alone (a cascade's options depend on its parent).
 */
export function CreateInContext({ field, control, locked, onChosen }: Props) {
  const source =
    field.kind === 'select' && field.source && !field.dependsOn && !locked
      ? RESOURCE_BY_KEY[field.source]
      : undefined;
  return source ? <Offer source={source} name={field.name} control={control} onChosen={onChosen} /> : null;
}

/** To those who may create `source`'s records, where its module's form is the definition's own. */
function Offer({
  source,
  name,
  control,
  onChosen,
}: { source: ResourceDef; name: string } & Pick<Props, 'control' | 'onChosen'>) {
  const can = useCan();
  const { form: ownScreen } = useResourceExtension(source);
  const { field } = useController({ control, name });
  const [open, setOpen] = useState(false);
  const create = source.permissions.create;
  if (!create || !source.createSchema || ownScreen || !can(create)) return null;
  return (
    <>
      <Button size="small" startIcon={<AddIcon />} onClick={() => setOpen(true)} sx={{ mt: 0.5 }}>
        New {source.label.toLowerCase()}…
      </Button>
      <CreateRecordDialog
        source={source}
        open={open}
        onClose={() => setOpen(false)}
        onCreated={(option) => {
          field.onChange(option);
          onChosen(name);
          setOpen(false);
        }}
      />
    </>
  );
}
