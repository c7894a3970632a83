import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * A record screen once its record is in: its heading shows at once, over a skeleton of the form
 * (a status named 'Loading ...'), so the heading alone does not mean the fields are there.
 */
export async function findLoadedScreen(title: string): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { level: 1, name: title });
  await waitFor(() => expect(screen.queryByRole('status', { name: /^Loading/ })).toBeNull());
  return heading;
}

/** What a view says for `label`: the value its label and value list names by that label. */
export const readValue = (label: string): string =>
  screen.getByRole('definition', { name: label }).textContent ?? '';

/** Waits for a view to say `label`'s value. */
export const findReadValue = async (label: string): Promise<string> =>
  (await screen.findByRole('definition', { name: label })).textContent ?? '';
