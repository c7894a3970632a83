import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { HIDDEN_FIELD_HELP } from '@wfc/contract';
import { useId } from 'react';
import { HiddenValue } from '../../ui/HiddenValue';
import { Cell, Section } from './ProfileLayout';

/**
 * A whole group of the profile (its address, its social links) the viewer may not see: one line
 * for the group, since its fields one by one would only say the same thing again.
 */
export function HiddenNote() {
  return (
    <Typography
      component="p"
      variant="body2"
      color="text.secondary"
      sx={{ m: 0, display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 0.5 }}
    >
      <HiddenValue />
      {/* Said already by the value's own label to assistive technology. */}
      <span aria-hidden>{HIDDEN_FIELD_HELP}</span>
    </Typography>
  );
}

/**
 * A field of the profile form the viewer may not see, in its place and read-only: an empty input
 * there would read as "no value" and invite typing one the save would not keep.
 */
export function HiddenCell({ label, wide }: { label: string; wide?: boolean }) {
  const id = useId();
  return (
    <Cell wide={wide}>
      <Box
        role="group"
        aria-labelledby={id}
        // As tall as the inputs beside it, so that the two columns stay in line.
        sx={{ minHeight: 56, display: 'flex', flexDirection: 'column', justifyContent: 'center', gap: 0.5 }}
      >
        <Typography id={id} variant="body2" color="text.secondary" sx={{ fontWeight: 500 }}>
          {label}
        </Typography>
        <Box sx={{ typography: 'body1' }}>
          <HiddenValue />
        </Box>
      </Box>
    </Cell>
  );
}

/** A section of the profile form whose fields are all hidden from the user: in its place, said once. */
export function HiddenSection({ title }: { title: string }) {
  return (
    <Section title={title}>
      <Cell wide>
        <HiddenNote />
      </Cell>
    </Section>
  );
}
