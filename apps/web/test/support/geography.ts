/** When the geography records were created and last changed: all at version 1. */
export const STAMP = { createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z', version: 1 };

/** A state as GetStateByCode answers: Otago, in New Zealand (COUNTRY-1). */
export const OTAGO = {
  stateCode: 'STATE-1',
  name: 'Otago',
  iso: 'OT',
  country: { countryCode: 'COUNTRY-1', name: 'New Zealand' },
  ...STAMP,
};
