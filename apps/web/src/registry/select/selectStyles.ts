import { alpha, type Theme } from '@mui/material/styles';
import type { StylesConfig, ThemeConfig } from 'react-select';
import type { Option } from './options';

/** react-select drawn as an outlined MUI field: its border says focus and errors as MUI's does. */
/** `dense`: as tall as a small text field, beside a list's other filters. */
export function selectStyles(theme: Theme, invalid: boolean, dense = false): StylesConfig<Option, boolean> {
  const { palette } = theme;
  return {
    control: (base, state) => ({
      ...base,
      minHeight: dense ? 40 : 56,
      borderRadius: theme.shape.borderRadius,
      backgroundColor: 'transparent',
      borderColor: invalid
        ? palette.error.main
        : state.isFocused
          ? palette.primary.main
          : palette.action.disabled,
      boxShadow: state.isFocused
        ? `0 0 0 1px ${invalid ? palette.error.main : palette.primary.main}`
        : 'none',
      '&:hover': { borderColor: invalid ? palette.error.main : palette.text.primary },
    }),
    valueContainer: (base) => ({ ...base, padding: dense ? '0 12px' : '6px 12px' }),
    singleValue: (base, state) => ({
      ...base,
      color: state.isDisabled ? palette.text.primary : base.color,
    }),
    multiValue: (base) => ({ ...base, backgroundColor: palette.action.selected, borderRadius: 12 }),
    multiValueLabel: (base) => ({ ...base, color: palette.text.primary, padding: '2px 6px' }),
    placeholder: (base) => ({ ...base, color: palette.text.secondary }),
    menuPortal: (base) => ({ ...base, zIndex: theme.zIndex.modal + 1 }),
    menu: (base) => ({
      ...base,
      zIndex: theme.zIndex.modal + 1,
      color: palette.text.primary,
      // A shadow is lost on a dark page: an edge keeps the open menu apart from the form.
      border: `1px solid ${palette.divider}`,
    }),
    indicatorsContainer: (base, state) => ({ ...base, display: state.isDisabled ? 'none' : base.display }),
  };
}

/** react-select's colours taken from the scheme in use. */
export const selectTheme =
  ({ palette }: Theme): ThemeConfig =>
  (base) => ({
    ...base,
    colors: {
      ...base.colors,
      // The chosen option's fill, under text in neutral0: the text green reaches 4.5:1 there.
      primary: palette.brand.text,
      primary75: alpha(palette.primary.main, 0.6),
      primary50: alpha(palette.primary.main, 0.24),
      primary25: alpha(palette.primary.main, 0.1),
      // react-select's greys are for a white page: the scheme's own colours instead (the
      // theme is re-rendered per scheme), so the menu and the chosen value read in dark too.
      neutral0: palette.background.paper,
      neutral5: palette.action.hover,
      neutral10: palette.action.selected,
      neutral20: palette.action.disabled,
      neutral30: palette.text.secondary,
      neutral40: palette.text.secondary,
      neutral50: palette.text.secondary,
      neutral60: palette.text.secondary,
      neutral70: palette.text.primary,
      neutral80: palette.text.primary,
      neutral90: palette.text.primary,
    },
  });
