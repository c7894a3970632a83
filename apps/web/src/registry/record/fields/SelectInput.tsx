import type { ResourceDef } from '@wfc/contract';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { type Option, ResourceSelect, type SelectParent } from '../../select/ResourceSelect';
import { useRequired } from './required';

interface BaseProps<V extends FieldValues> {
  control: Control<V>;
  name: FieldPath<V>;
  source: ResourceDef;
  inputId: string;
  label: string;
  disabled: boolean;
  error?: string;
  /** A list query flag sent with every page (`assignable`: only what the user may give). */
  listFlag?: string;
  help?: string;
  isOptionDisabled?(option: Option): boolean;
}

interface SelectProps<V extends FieldValues> extends BaseProps<V> {
  parent?: SelectParent;
  /**
   * Told, before the form stores a pick, whether it changed the value: a cascade clears the
   * selectors that depend on this one only then.
   */
  onPicked?(changed: boolean): void;
}

/** One option of another resource's list, as a form field. */
export function SelectInput<V extends FieldValues>({ control, name, onPicked, ...select }: SelectProps<V>) {
  const required = useRequired(name) && !select.disabled;
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => {
        const current = (field.value as Option | null | undefined) ?? null;
        return (
          <ResourceSelect
            {...select}
            required={required}
            value={current}
            onChange={(v) => {
              onPicked?.(v?.value !== current?.value);
              field.onChange(v);
            }}
            onBlur={field.onBlur}
          />
        );
      }}
    />
  );
}

/** Several options of another resource's list (a role's permissions), as a form field. */
export function MultiSelectInput<V extends FieldValues>({ control, name, ...select }: BaseProps<V>) {
  const required = useRequired(name) && !select.disabled;
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <ResourceSelect
          {...select}
          required={required}
          isMulti
          value={(field.value as Option[] | undefined) ?? []}
          onChange={field.onChange}
          onBlur={field.onBlur}
        />
      )}
    />
  );
}
