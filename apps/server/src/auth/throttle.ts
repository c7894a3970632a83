import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { loginThrottle } from '../db/schema/index.ts';

export interface ThrottlePolicy {
  /** Per account from one address: the real user's own key, which an attacker elsewhere cannot fill. */
  maxPerUser: number;
  maxPerIp: number;
  /** Per account from every address but those it signed in from lately: a guess spread over many. */
  maxPerAccount: number;
  /** The longest block, and the quiet time after which a key's count starts again from zero. */
  windowMs: number;
}

const FIRST_BLOCK_MS = 60_000;
/** How long a successful sign-in keeps its address out of the account-wide count. */
export const KNOWN_ADDRESS_DAYS = 30;

export interface ThrottleKeys {
  accountAtAddress: string;
  address: string;
  account: string;
}

export function throttleKeys(username: string, ip: string): ThrottleKeys {
  const account = username.trim().toLowerCase();
  return {
    // JSON, so no name can be shaped to read as another name-and-address pair.
    accountAtAddress: `ip+user:${JSON.stringify([ip, account])}`,
    address: `ip:${ip}`,
    account: `user:${account}`,
  };
}

/**
 * The block after reaching a limit, then after each further failure: doubling from the first step
 * and ending at the window, which every later block keeps.
 */
export function blockLadder(windowMs: number, firstMs = FIRST_BLOCK_MS): number[] {
  const steps: number[] = [];
  for (let ms = firstMs; ms < windowMs; ms *= 2) steps.push(ms);
  steps.push(windowMs);
  return steps;
}

/** What an attempt was counted on; `retryAfter` seconds > 0 when it was refused. */
export interface Attempt {
  keys: ThrottleKeys;
  counted: string[];
  retryAfter: number;
  /**
   * The attempt reached the limit of a key of the account (from this address or from all): if it
   * fails, the account is locked out for a while (a webhook event tells of it).
   */
  locksAccount?: boolean;
}

const ms = (value: number) => sql`(${Math.round(value)}::float8 * interval '1 millisecond')`;

/**
 * Counts an attempt on every key and tells whether any key refuses it, in one statement, before
 * the password is checked: attempts in flight count, on every instance sharing the database, and
 * there is no gap between reading a count and adding to it. The attempt that reaches a key's limit
 * blocks the key at once, as if it failed; a success or a refusal elsewhere gives it back.
 * Every SET expression reads the row as it was, so `refused` tells whether this attempt found it
 * blocked. An account's recent sign-in address is left out of the account-wide count, so a guess
 * spread over many addresses cannot lock the real user out where they sign in.
 */
export async function beginAttempt(
  db: Database,
  keys: ThrottleKeys,
  policy: ThrottlePolicy,
): Promise<Attempt> {
  const ladder = blockLadder(policy.windowMs);
  const delay = (count: SQL, limit: SQL) =>
    sql`(${`{${ladder.join(',')}}`}::float8[])[least(${count} - ${limit}, ${ladder.length - 1}::int) + 1] * interval '1 millisecond'`;
  const t = loginThrottle;
  const old = {
    blocked: sql`coalesce(${t.blockedUntil} > now(), false)`,
    quiet: sql`greatest(${t.lastAttemptAt}, ${t.blockedUntil}) < now() - ${ms(policy.windowMs)}`,
  };
  const limit = sql.raw('excluded.max_attempts');
  const firstBlock = (max: SQL) => sql`case when 1 >= ${max} then now() + ${delay(sql`1`, max)} end`;
  // Rows are locked in key order ("C": the same on every server), as in `giveBack`: no deadlock.
  const rows = await rowsOf<{ key: string; refused: boolean; wait: number | null }>(
    db,
    sql`
    insert into ${t} (key, max_attempts, attempts, refused, last_attempt_at, blocked_until)
    select v.key, v.max_attempts, 1, false, now(), ${firstBlock(sql.raw('v.max_attempts'))}
    from (values (${keys.accountAtAddress}::text, ${policy.maxPerUser}::int),
                 (${keys.address}::text, ${policy.maxPerIp}::int),
                 (${keys.account}::text, ${policy.maxPerAccount}::int)) as v(key, max_attempts)
    where v.key <> ${keys.account} or not exists (
      select 1 from ${t} known where known.key = ${keys.accountAtAddress}
        and known.signed_in_at > now() - ${`${KNOWN_ADDRESS_DAYS} days`}::interval)
    order by v.key collate "C"
    on conflict (key) do update set
      max_attempts = ${limit},
      refused = ${old.blocked},
      attempts = case when ${old.quiet} then 1 when ${old.blocked} then ${t.attempts} else ${t.attempts} + 1 end,
      blocked_until = case
        when ${old.quiet} then ${firstBlock(limit)}
        when ${old.blocked} then ${t.blockedUntil}
        when ${t.attempts} + 1 >= ${limit} then now() + ${delay(sql`${t.attempts} + 1`, limit)}
        else ${t.blockedUntil} end,
      last_attempt_at = now()
    returning key, refused, ceil(extract(epoch from blocked_until - now()))::int as wait`,
  );
  const refused = rows.filter((r) => r.refused);
  const counted = rows.filter((r) => !r.refused).map((r) => r.key);
  if (refused.length === 0) {
    // Not blocked before this attempt and blocked after it: this attempt set the block.
    const locksAccount = rows.some(
      (r) => (r.wait ?? 0) > 0 && (r.key === keys.account || r.key === keys.accountAtAddress),
    );
    return { keys, counted, retryAfter: 0, ...(locksAccount ? { locksAccount } : {}) };
  }
  // Refused unchecked: it must not use up the allowance of the keys that did let it through.
  await giveBack(db, counted);
  return { keys, counted: [], retryAfter: Math.max(1, ...refused.map((r) => r.wait ?? 0)) };
}

/**
 * Takes one attempt off each key and lifts a block it set: a block set since then by another
 * attempt counted this one too, so without it the count is below that block's threshold.
 */
async function giveBack(db: Database, keys: string[]) {
  if (keys.length === 0) return;
  const t = loginThrottle;
  await db.execute(sql`
    with locked as (
      select key from ${t} where key in (${sql.join(
        keys.map((k) => sql`${k}`),
        sql`, `,
      )})
      order by key collate "C" for update)
    update ${t} set
      attempts = greatest(${t.attempts} - 1, 0),
      blocked_until = case when ${t.blockedUntil} > now() then now() else ${t.blockedUntil} end
    from locked where ${t.key} = locked.key`);
}

/**
 * An attempt that proved the password but is not yet a sign-in (a second factor is awaited): it is
 * no failure, but leaves the address unknown and the account-and-address count as it was.
 */
export const giveBackAttempt = (db: Database, attempt: Attempt) => giveBack(db, attempt.counted);

/**
 * A success is no failure: its attempt is given back, its account-and-address key starts afresh
 * and its address becomes known for the account. The account-wide and address counts keep the
 * failures of others.
 */
export async function attemptSucceeded(db: Database, attempt: Attempt, policy: ThrottlePolicy) {
  const own = attempt.keys.accountAtAddress;
  await giveBack(
    db,
    attempt.counted.filter((k) => k !== own),
  );
  await db
    .insert(loginThrottle)
    .values({ key: own, maxAttempts: policy.maxPerUser, attempts: 0, signedInAt: sql`now()` })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: { attempts: 0, blockedUntil: null, refused: false, signedInAt: sql`now()` },
    });
}
