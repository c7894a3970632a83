import { AsyncLocalStorage } from 'node:async_hooks';

/** What an audit entry records about the request it was made in, besides who acted. */
export interface AuditContext {
  /** The request's id, as its log lines and its X-Request-Id answer carry it. */
  requestId: string;
}

const current = new AsyncLocalStorage<AuditContext>();

/**
 * Runs `work` with `context` attached to every audit entry recorded while it runs, however deep
 * the call that records it: the route registrar wraps each handler (and the error handler each
 * refusal) in it, so no feature passes the request id along by hand.
 */
export const withAuditContext = <T>(context: AuditContext, work: () => T): T => current.run(context, work);

/** The context of the request being served; undefined outside one (commands, seeding). */
export const auditContext = (): AuditContext | undefined => current.getStore();
