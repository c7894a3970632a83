import { describe, expect, it } from 'vitest';
import { envelopeText, JsonText } from '../../../src/http/routes.ts';

describe('an answer whose data is already JSON', () => {
  it('is the same envelope a parsed answer gets, with the data as written', () => {
    const data = new JsonText('{"days" : [{"date":"2024-02-01","daily":7.50}], "name" : "Ann \\"A\\" Lee"}');
    expect(JSON.parse(envelopeText({ message: 'Trend "retrieved"', data }))).toEqual({
      statusCode: 200,
      message: 'Trend "retrieved"',
      data: { days: [{ date: '2024-02-01', daily: 7.5 }], name: 'Ann "A" Lee' },
    });
    expect(JSON.parse(envelopeText({ message: 'Listed', data: new JsonText('[]'), total: 0 }))).toEqual({
      statusCode: 200,
      message: 'Listed',
      data: [],
      total: 0,
    });
  });
});
