import { createContext, type ReactNode, useContext } from 'react';

const RequiredFieldsContext = createContext<ReadonlySet<string>>(new Set());

/**
 * The form's required fields, for its inputs to mark: a form knows them from its schema
 * (requiredFields.ts), its inputs only know their own names.
 */
export function RequiredFields({ names, children }: { names: ReadonlySet<string>; children: ReactNode }) {
  return <RequiredFieldsContext value={names}>{children}</RequiredFieldsContext>;
}

/** Whether the field of this (dotted) name is required on the form it is in. */
export const useRequired = (name: string): boolean => useContext(RequiredFieldsContext).has(name);

/**
 * The asterisk of a required field's label, as MUI draws it (a thin space and '*'), but by CSS with
 * an empty alternative text instead of an element: it stays out of both the label's text and its
 * accessible name, so a field is still found and announced by its label alone ('Title', not
 * 'Title *'). The input's own `required` tells assistive technology the rest.
 */
export const REQUIRED_MARK = { '&::after': { content: '"\\2009*" / ""' } } as const;
