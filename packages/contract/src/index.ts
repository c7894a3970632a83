export * from './envelope.ts';
export * from './fields.ts';
export * from './performance.ts';
export * from './permissions.ts';
export * from './query.ts';
export * from './resources/index.ts';
export { lookupSchema, referenceSchema } from './resources/record-parts.ts';
export * from './session.ts';
