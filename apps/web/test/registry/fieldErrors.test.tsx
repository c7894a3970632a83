import { act, render, renderHook, screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { errorAt, GeneralErrors, useServerFieldErrors } from '../../src/registry/record/fieldErrors';

interface Values {
  genderName: string;
  address: { cityCode: string | null };
  rolePermissions: string[];
}

function useFormWithServerErrors() {
  const form = useForm<Values>({
    defaultValues: { genderName: '', address: { cityCode: null }, rolePermissions: [] },
  });
  const server = useServerFieldErrors(form.setError, ['genderName', 'address.cityCode', 'rolePermissions']);
  // formState only reports what a render has read.
  return { errors: form.formState.errors, server };
}

describe('server field errors', () => {
  it('places each error on the closest field and keeps the rest for the note above the form', () => {
    const { result } = renderHook(useFormWithServerErrors);
    act(() =>
      result.current.server.show([
        { field: 'genderName', message: 'This gender name is already taken' },
        { field: 'address.cityCode', message: 'City is not in the state' },
        { field: 'rolePermissions.1', message: 'Unknown permission' },
        { field: 'version', message: 'The record changed meanwhile' },
      ]),
    );
    const { errors } = result.current;
    expect(errorAt(errors, 'genderName')).toBe('This gender name is already taken');
    expect(errorAt(errors, 'address.cityCode')).toBe('City is not in the state');
    expect(errorAt(errors, 'rolePermissions')).toBe('Unknown permission');
    expect(result.current.server.general).toEqual(['The record changed meanwhile']);
    act(() => result.current.server.clear());
    expect(result.current.server.general).toEqual([]);
  });

  it('shows the unplaced messages in one alert, and nothing when there are none', () => {
    const { rerender } = render(<GeneralErrors messages={[]} />);
    expect(screen.queryByRole('alert')).toBeNull();
    rerender(<GeneralErrors messages={['The record changed meanwhile', 'Try again']} />);
    expect(screen.getByRole('alert').textContent).toBe('The record changed meanwhileTry again');
  });
});
