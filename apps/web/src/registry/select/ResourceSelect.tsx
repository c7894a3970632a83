import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import { useTheme } from '@mui/material/styles';
import type { ResourceDef } from '@wfc/contract';
import { type UIEvent, useMemo, useRef, useState } from 'react';
import Select, {
  components,
  type GroupBase,
  type MenuListProps,
  type MultiValue,
  type SelectInstance,
  type SingleValue,
} from 'react-select';
import { REQUIRED_MARK } from '../record/fields/required';
import { type Option, type SelectParent, useOptions } from './options';
import { selectStyles, selectTheme } from './selectStyles';
import { useEnterToPick } from './useEnterToPick';

export type { Option, SelectParent } from './options';

interface BaseProps {
  source: ResourceDef;
  inputId: string;
  label: string;
  disabled?: boolean;
  parent?: SelectParent;
  /** A list query flag sent with every page (`assignable`: only what the user may give). */
  listFlag?: string;
  error?: string;
  /** Shown under the selector while there is no error. */
  help?: string;
  /** Marked as required: the asterisk on the label and `aria-required` on the input. */
  required?: boolean;
  /** Options shown but not choosable. */
  isOptionDisabled?(option: Option): boolean;
  onBlur?(): void;
  /** As tall as a small text field (a list's filter). */
  dense?: boolean;
}

type Props = BaseProps &
  (
    | { isMulti: true; value: Option[]; onChange(value: Option[]): void }
    | { isMulti?: false; value: Option | null; onChange(value: Option | null): void }
  );

/** Within this many pixels of the end of the menu the next page is requested. */
const BOTTOM_SLACK_PX = 40;

/**
 * react-select reports the bottom only for wheel and touch gestures; dragging the scrollbar or
 * moving with the keyboard scrolls too, so the list itself also watches its scroll position.
 */
function MenuList(props: MenuListProps<Option, boolean, GroupBase<Option>>) {
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - BOTTOM_SLACK_PX) {
      props.selectProps.onMenuScrollToBottom?.(e.nativeEvent as unknown as WheelEvent);
    }
  };
  return <components.MenuList {...props} innerProps={{ ...props.innerProps, onScroll }} />;
}

/**
 * A selector over another resource's list: keyword search on the server and the next page of 100
 * appended on reaching the bottom, while fewer than the total are loaded. What is typed filters
 * and ranks the options already loaded at once (exact, then prefix, then substring matches), while
 * the server's search runs; Enter never takes an option that does not match what is typed.
 */
export function ResourceSelect(props: Props) {
  const { inputId, label, disabled, error, help, required, isOptionDisabled, onBlur, dense } = props;
  const theme = useTheme();
  const [opened, setOpened] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const navigated = useRef(false);
  const selectRef = useRef<SelectInstance<Option, boolean>>(null);
  const options = useOptions({ ...props, enabled: opened && !disabled, navigated });
  // What Enter may take: a multi-select's menu hides the options already chosen.
  const chosen = props.isMulti ? props.value : null;
  const candidates = useMemo(() => {
    const taken = new Set((chosen ?? []).map((o) => o.value));
    return options.shown.filter((o) => !taken.has(o.value) && !isOptionDisabled?.(o));
  }, [options.shown, chosen, isOptionDisabled]);
  const enter = useEnterToPick({ ...options, select: selectRef, menuOpen, candidates, navigated });
  const message = error ?? options.failed;
  const errorId = `${inputId}-message`;
  return (
    <FormControl fullWidth variant="outlined" error={Boolean(message)}>
      <InputLabel
        shrink
        size={dense ? 'small' : 'medium'}
        htmlFor={inputId}
        sx={{
          bgcolor: 'background.paper',
          px: 0.75,
          ml: -0.75,
          zIndex: 2,
          ...(required ? REQUIRED_MARK : {}),
        }}
      >
        {label}
      </InputLabel>
      <Select<Option, boolean>
        ref={selectRef}
        inputId={inputId}
        instanceId={inputId}
        isMulti={props.isMulti}
        isDisabled={disabled}
        isClearable={!disabled}
        required={required}
        value={props.value}
        onChange={(v) => {
          if (props.isMulti) props.onChange([...(v as MultiValue<Option>)]);
          else props.onChange((v as SingleValue<Option>) ?? null);
        }}
        onBlur={onBlur}
        options={options.shown}
        isOptionDisabled={isOptionDisabled}
        filterOption={null}
        inputValue={options.input}
        onInputChange={(value, meta) => {
          if (meta.action === 'input-change' || meta.action === 'set-value' || meta.action === 'menu-close') {
            navigated.current = false;
            options.setInput(meta.action === 'input-change' ? value : '');
          }
        }}
        onKeyDown={enter.onKeyDown}
        onMenuOpen={() => {
          setOpened(true);
          setMenuOpen(true);
        }}
        onMenuClose={() => {
          setMenuOpen(false);
          enter.onMenuClose();
        }}
        onMenuScrollToBottom={options.loadMore}
        isLoading={options.fetching || options.searching}
        noOptionsMessage={options.failed ? () => options.failed : undefined}
        components={{ MenuList }}
        menuPortalTarget={typeof document === 'undefined' ? undefined : document.body}
        menuPlacement="auto"
        styles={selectStyles(theme, Boolean(message), dense)}
        theme={selectTheme(theme)}
        aria-invalid={Boolean(message)}
        aria-errormessage={message ? errorId : undefined}
      />
      {message ? (
        // Announced when it appears: react-select keeps aria-describedby for its own placeholder.
        <FormHelperText id={errorId} aria-live="polite">
          {message}
        </FormHelperText>
      ) : (
        help && <FormHelperText id={`${inputId}-help`}>{help}</FormHelperText>
      )}
    </FormControl>
  );
}
