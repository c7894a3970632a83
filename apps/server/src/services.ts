import type { SessionPolicy } from './auth/sessions.ts';
import type { ThrottlePolicy } from './auth/throttle.ts';
import type { Config } from './config/config.ts';
import type { Database } from './db/client.ts';

/** What handlers get besides the request: built once per app. */
export interface Services {
  db: Database;
  config: Config;
  sessionPolicy: SessionPolicy;
  throttlePolicy: ThrottlePolicy;
}

export function makeServices(db: Database, config: Config): Services {
  return {
    db,
    config,
    sessionPolicy: {
      idleMs: config.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: config.SESSION_ABSOLUTE_HOURS * 3_600_000,
    },
    throttlePolicy: {
      maxPerUser: config.LOGIN_MAX_FAILURES_PER_USER,
      maxPerIp: config.LOGIN_MAX_FAILURES_PER_IP,
      windowMs: config.LOGIN_THROTTLE_MINUTES * 60_000,
    },
  };
}
