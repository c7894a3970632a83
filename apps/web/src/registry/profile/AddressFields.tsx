import { cascadeFrom, RESOURCE_BY_KEY, type ResourceKey } from '@wfc/contract';
import { type UseFormSetValue, useWatch } from 'react-hook-form';
import { type ProfileFormParts, Section, SelectCell, TextCell } from './ProfileLayout';
import type { ProfileValues } from './profileValues';

/** The cascade's options: a country's states, a state's cities, as the definitions declare them. */
const cascade = (child: ResourceKey, parent: ResourceKey) => cascadeFrom(RESOURCE_BY_KEY[child], parent);

interface Props {
  form: ProfileFormParts;
  setValue: UseFormSetValue<ProfileValues>;
}

/** The address, whose state is chosen within its country and city within its state. */
export function AddressFields({ form, setValue }: Props) {
  const country = useWatch({ control: form.control, name: 'address.countryCode' });
  const state = useWatch({ control: form.control, name: 'address.stateCode' });
  return (
    <Section title="Address">
      <TextCell form={form} name="address.addressLineOne" label="Address Line One" />
      <TextCell form={form} name="address.addressLineTwo" label="Address Line Two" />
      <SelectCell
        form={form}
        name="address.countryCode"
        label="Country"
        source="country"
        onPicked={(changed) => {
          if (!changed) return;
          setValue('address.stateCode', null);
          setValue('address.cityCode', null);
        }}
      />
      {country?.value && (
        <SelectCell
          form={form}
          name="address.stateCode"
          label="State"
          source="state"
          parent={{
            ...cascade('state', 'country'),
            value: country.value,
          }}
          onPicked={(changed) => {
            if (changed) setValue('address.cityCode', null);
          }}
        />
      )}
      {country?.value && state?.value && (
        <SelectCell
          form={form}
          name="address.cityCode"
          label="City"
          source="city"
          parent={{
            ...cascade('city', 'state'),
            value: state.value,
          }}
        />
      )}
      <TextCell form={form} name="address.postalCode" label="Postal Code" />
    </Section>
  );
}
