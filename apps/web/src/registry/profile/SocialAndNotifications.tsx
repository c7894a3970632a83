import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Switch from '@mui/material/Switch';
import { Controller } from 'react-hook-form';
import { Cell, type ProfileFormParts, Section, TextCell } from './ProfileLayout';
import { NOTIFICATIONS, SOCIAL } from './profileValues';

export function SocialLinks({ form }: { form: ProfileFormParts }) {
  return (
    <Section title="Social">
      {SOCIAL.map((s) => (
        <TextCell key={s.name} form={form} name={`social.${s.name}`} label={s.label} kind="url" />
      ))}
    </Section>
  );
}

/** Which channels the person is notified on. */
export function Notifications({ form }: { form: ProfileFormParts }) {
  return (
    <Section title="Notifications">
      <Cell wide>
        <FormGroup row sx={{ columnGap: 3 }}>
          {NOTIFICATIONS.map((n) => (
            <Controller
              key={n.name}
              name={`notification.${n.name}`}
              control={form.control}
              render={({ field }) => (
                <FormControlLabel
                  label={n.label}
                  control={
                    <Switch
                      checked={Boolean(field.value)}
                      onChange={(e) => field.onChange(e.target.checked)}
                      name={field.name}
                    />
                  }
                />
              )}
            />
          ))}
        </FormGroup>
      </Cell>
    </Section>
  );
}
