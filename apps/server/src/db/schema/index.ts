export * from './access.ts';
export * from './api-tokens.ts';
export * from './imports.ts';
export * from './people.ts';
export * from './performance.ts';
export * from './recycle-bin.ts';
export * from './reference.ts';
export * from './webhooks.ts';
