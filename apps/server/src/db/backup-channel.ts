import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { CHANNEL_FILE, disown, type LockHolder, own, thisProcess } from './data-dir-lock.ts';

/*
 * How `npm run db:backup` gets a backup of the embedded database while the server runs: only the
 * process that has the database open can copy it safely (db/embedded-dump.ts), so the command asks
 * it. The server listens on a loopback port of its own (whatever HOST says, so that the command
 * always reaches it and nothing outside the machine does) and writes the port and a random token
 * into DATA_DIR/console.channel, readable by its owner only. The command reads that file, which
 * proves it may read the database's directory anyway, and sends the token with its request; the
 * answer is the backup itself, which the command writes where it was asked to.
 */

export interface ChannelInfo {
  pid: number;
  startTicks: number | null;
  port: number;
  token: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Pure: whether an Authorization header carries the token (compared in constant time). */
export function authorised(header: string | undefined, token: string): boolean {
  const match = /^Bearer (\S+)$/.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1] ?? ''), digest(token));
}

/** Pure: a channel file's content, or null when it is not one. */
export function parseChannel(text: string): ChannelInfo | null {
  try {
    const value = JSON.parse(text) as Partial<Record<keyof ChannelInfo, unknown>>;
    const { pid, startTicks, port, token } = value;
    if (!Number.isSafeInteger(pid) || !Number.isSafeInteger(port) || typeof token !== 'string') return null;
    if (startTicks !== null && !Number.isSafeInteger(startTicks)) return null;
    return {
      pid: pid as number,
      startTicks: startTicks as number | null,
      port: port as number,
      token,
    };
  } catch {
    return null;
  }
}

/** Pure: whether a channel file was written by the process that holds the lock now. */
export const channelOf = (info: ChannelInfo | null, holder: LockHolder): info is ChannelInfo =>
  info !== null && info.pid === holder.pid && info.startTicks === holder.startTicks;

export const BACKUP_PATH = '/backup';

/** Answers backups of the database on a loopback port until closed. */
export async function serveBackups(
  dataDir: string,
  dump: () => Promise<Uint8Array>,
): Promise<{ close(): Promise<void> }> {
  const token = randomBytes(32).toString('base64url');
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url !== BACKUP_PATH) return res.writeHead(404).end();
    if (!authorised(req.headers.authorization, token)) return res.writeHead(401).end();
    try {
      const backup = await dump();
      res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': backup.length });
      res.end(backup);
    } catch (err) {
      // The database is closing: the server is stopping.
      res.writeHead(503, { 'content-type': 'text/plain' }).end((err as Error).message);
    }
  };
  const server = createServer((req, res) => {
    req.resume();
    void answer(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const { pid, startTicks } = thisProcess();
  const file = join(dataDir, CHANNEL_FILE);
  const content = `${JSON.stringify({ pid, startTicks, port, token } satisfies ChannelInfo)}\n`;
  // Written whole under another name, then renamed: a reader never sees half of it.
  const temp = `${file}.${pid}`;
  // A new file, so that its mode is the one given.
  await rm(temp, { force: true });
  await writeFile(temp, content, { mode: 0o600, flag: 'wx' });
  await rename(temp, file);
  own(file, content);
  return {
    async close() {
      // Waits for a backup under way: the database must not close under it.
      await new Promise((resolve) => server.close(resolve));
      await disown(file, content);
    },
  };
}

export type BackupAnswer = { ok: true; backup: Uint8Array } | { ok: false; status: number; reason: string };

/** Asks the server the channel file names for a backup. */
export function requestBackup(info: ChannelInfo): Promise<BackupAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: info.port,
        method: 'POST',
        path: BACKUP_PATH,
        headers: { authorization: `Bearer ${info.token}`, connection: 'close' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve(
            res.statusCode === 200
              ? { ok: true, backup: new Uint8Array(body) }
              : { ok: false, status: res.statusCode ?? 0, reason: body.toString('utf8') },
          );
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
