import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config/config.ts';

/*
 * Secrets the server must read back (TOTP secrets) are stored encrypted with AES-256-GCM, under a
 * key derived from SECRET_KEY: a copy of the database alone does not give anyone's second factor.
 */

const VERSION = 'v1';

export type SecretKey = Buffer;

/** Pure: the AES key for a SECRET_KEY (HKDF, so the key is uniform whatever the text looks like). */
export const deriveKey = (secret: string): SecretKey =>
  Buffer.from(hkdfSync('sha256', secret, 'wfc', 'wfc totp secrets v1', 32));

export function seal(key: SecretKey, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** Throws when the text was not sealed with this key (or was altered). */
export function open(key: SecretKey, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

export const KEY_FILE = 'secret.key';

/**
 * SECRET_KEY, or on the embedded database a key generated once into DATA_DIR (readable by its
 * owner only); undefined with DATABASE_URL and no SECRET_KEY, where instances could not agree on
 * a generated one.
 */
export async function loadSecretKey(config: Config): Promise<SecretKey | undefined> {
  if (config.SECRET_KEY) return deriveKey(config.SECRET_KEY);
  if (config.DATABASE_URL) return undefined;
  const file = join(config.DATA_DIR, KEY_FILE);
  try {
    return deriveKey((await readFile(file, 'utf8')).trim());
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(config.DATA_DIR, { recursive: true });
  const generated = randomBytes(32).toString('base64url');
  // 'wx': of two starts racing, the second fails to overwrite and reads the first's key.
  try {
    await writeFile(file, `${generated}\n`, { mode: 0o600, flag: 'wx' });
    return deriveKey(generated);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return deriveKey((await readFile(file, 'utf8')).trim());
  }
}
