/**
 * What the browser tests need of the server, as `@wfc/server/testing`: the real app over a fresh,
 * bootstrapped database, the user builder, the tables and codes to seed data with, and the
 * background jobs (webhook deliveries) as the server runs them.
 */
export { ADMIN_USERNAME } from '../../src/bootstrap.ts';
export type { Database } from '../../src/db/client.ts';
export { newCode } from '../../src/db/codes.ts';
export * as schema from '../../src/db/schema/index.ts';
export { type JobQueue, type JobQueueOptions, startJobs } from '../../src/jobs/queue.ts';
export { ADMIN_PASSWORD, createTestApp, type TestApp } from './app.ts';
export { sharedFixture } from './fixture.ts';
export { CLIENT_ID, CLIENT_SECRET, startProvider, type TestProvider } from './oidc.ts';
export { type TestUser, USER_PASSWORD } from './users.ts';
