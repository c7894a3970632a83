import { describe, expect, it } from 'vitest';
import { dateFieldMessage, dateInputPattern } from '../../src/registry/record/fields/dateFormat';

describe('the format a date input shows', () => {
  it('spells out the locale’s numeric date', () => {
    expect(dateInputPattern('en-GB')).toBe('DD/MM/YYYY');
    expect(dateInputPattern('en-US')).toBe('MM/DD/YYYY');
    expect(dateInputPattern('de-DE')).toBe('DD.MM.YYYY');
    expect(dateInputPattern('ja-JP')).toBe('YYYY/MM/DD');
  });

  it('is named by the message of an empty date field only', () => {
    expect(dateFieldMessage('Date of birth is required', '', 'DD/MM/YYYY')).toBe(
      'Date of birth is required (DD/MM/YYYY)',
    );
    expect(dateFieldMessage('Date of birth must be a real date', '2024-02-30', 'DD/MM/YYYY')).toBe(
      'Date of birth must be a real date',
    );
  });
});
