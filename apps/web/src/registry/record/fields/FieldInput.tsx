import { type FormFieldDef, RESOURCE_BY_KEY, type ResourceDef } from '@wfc/contract';
import { type Control, useWatch } from 'react-hook-form';
import type { Option } from '../../select/ResourceSelect';
import type { DelegatedField } from '../delegation';
import type { FormValues } from '../formValues';
import { JsonInput } from './JsonInput';
import { ScopesInput } from './ScopesInput';
import { MultiSelectInput, SelectInput } from './SelectInput';
import { SwitchInput } from './SwitchInput';
import { TextInput } from './TextInput';

interface Props {
  def: ResourceDef;
  field: FormFieldDef;
  fields: readonly FormFieldDef[];
  control: Control<FormValues>;
  delegated: DelegatedField;
  error?: string;
  /** A selector others depend on took a new value: they must be chosen again. */
  onParentChange(name: string): void;
}

const autoCompleteFor = (field: FormFieldDef) =>
  field.kind === 'password' ? 'new-password' : field.kind === 'email' ? 'email' : 'off';

/** The input a field definition describes. */
export function FieldInput({ def, field, fields, control, delegated, error, onParentChange }: Props) {
  const id = `${def.key}-${field.name}`;
  const parentValue = useWatch({ control, name: field.dependsOn?.field ?? field.name }) as Option | null;

  if (field.kind === 'select' || field.kind === 'multiselect') {
    const source = field.source ? RESOURCE_BY_KEY[field.source] : undefined;
    if (!source) return null;
    // A cascading selector only makes sense once its parent has a value.
    if (field.dependsOn && !parentValue?.value) return null;
    const common = {
      control,
      name: field.name,
      source,
      inputId: id,
      label: field.label,
      disabled: delegated.locked,
      listFlag: delegated.listFlag,
      help: delegated.help,
      isOptionDisabled: delegated.isOptionDisabled,
      error,
    };
    if (field.kind === 'multiselect') return <MultiSelectInput {...common} />;
    const parent = field.dependsOn
      ? { endpoint: field.dependsOn.endpoint, param: field.dependsOn.param, value: parentValue?.value ?? '' }
      : undefined;
    const hasDependents = fields.some((f) => f.dependsOn?.field === field.name);
    return (
      <SelectInput
        {...common}
        parent={parent}
        onPicked={hasDependents ? (changed) => changed && onParentChange(field.name) : undefined}
      />
    );
  }

  if (field.kind === 'switch') {
    return (
      <SwitchInput
        control={control}
        name={field.name}
        id={id}
        label={field.label}
        disabled={delegated.locked}
        error={error}
        help={delegated.help ?? field.help}
      />
    );
  }

  if (field.kind === 'scopes') {
    if (!field.scopesOf || !delegated.scopes) return null;
    return (
      <ScopesInput
        control={control}
        name={field.name}
        of={field.scopesOf}
        id={id}
        label={field.label}
        kept={delegated.scopes.kept}
        actor={delegated.scopes.actor}
        help={field.help}
        limitHelp={delegated.help}
        error={error}
      />
    );
  }

  if (field.kind === 'json')
    return <JsonInput control={control} name={field.name} id={id} label={field.label} />;

  return (
    <TextInput
      control={control}
      name={field.name}
      id={id}
      label={field.label}
      kind={field.kind}
      disabled={delegated.locked}
      error={error}
      help={delegated.help ?? field.help}
      placeholder={field.placeholder}
      autoComplete={autoCompleteFor(field)}
    />
  );
}
