import { describe, expect, it } from 'vitest';
import { isoDate } from '../src/fields.ts';

const messages = (value: unknown) => {
  const checked = isoDate('Date of birth').safeParse(value);
  return checked.success ? [] : checked.error.issues.map((i) => i.message);
};

describe('a date field', () => {
  it('says an empty date is required, as any other required field does', () => {
    expect(messages('')).toEqual(['Date of birth is required']);
    expect(messages('   ')).toEqual(['Date of birth is required']);
    expect(messages(undefined)).toEqual(['Date of birth is required']);
  });

  it('names the format of a value that is no date, and refuses a day the calendar lacks', () => {
    expect(messages('12/04/1990')).toEqual(['Date of birth must be a date (YYYY-MM-DD)']);
    expect(messages('1990-02-30')).toEqual(['Date of birth must be a real date']);
    expect(messages('1990-04-12')).toEqual([]);
  });
});
