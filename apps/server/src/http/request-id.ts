import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What a client or proxy may name its request: 1 to 128 of letters, digits and `.`, `_`, `:`, `-`. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Pure: the id of a request, from its `X-Request-Id` when that is well formed (one header, nothing
 * that could break a log line or a header), else a new UUID.
 */
export const requestIdFor = (header: string | string[] | undefined): string =>
  typeof header === 'string' && WELL_FORMED.test(header) ? header : randomUUID();

/** Every answer names its request, refusals included: what a client quotes when it reports one. */
export function echoRequestIds(app: FastifyInstance) {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });
}
