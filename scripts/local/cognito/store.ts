import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { JWK } from 'jose';

export type UserStatus = 'UNCONFIRMED' | 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD' | 'RESET_REQUIRED';

export interface StoredCode {
  code: string;
  issuedAt: number; // epoch ms
  expiresAt: number; // epoch ms
}

export interface StoredUser {
  sub: string;
  /** The sign-in name: the e-mail address, lower-cased, fixed at creation. */
  username: string;
  /** Every attribute except `sub` (which is kept above). */
  attributes: Record<string, string>;
  passwordHash: string;
  status: UserStatus;
  enabled: boolean;
  createdAt: number; // epoch ms
  updatedAt: number; // epoch ms
  signUpCode?: StoredCode;
  forgotCode?: StoredCode;
}

/** One sign-in (one refresh token); access/ID tokens carry its id as `origin_jti`. */
export interface StoredSession {
  originJti: string;
  eventId: string;
  sub: string;
  clientId: string;
  /** sha256 (base64url) of the opaque refresh token; the token itself is never stored. */
  refreshTokenHash: string;
  authTime: number; // epoch seconds
  createdAt: number; // epoch ms
  expiresAt: number; // epoch ms (refresh token validity)
  revokedAt?: number; // epoch ms
}

export interface PoolState {
  version: 1;
  users: StoredUser[];
  sessions: StoredSession[];
}

const STATE_FILE = 'users.json';
const KEYS_FILE = 'keys.json';

/**
 * Writes JSON so that a reader (or a restart after SIGKILL) sees either the
 * previous or the new content, never a torn file: write a sibling temp file,
 * fsync it, then rename it over the target (rename is atomic on POSIX).
 */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

async function readJson<T>(file: string): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new Error(
      `[cognito] ${file} is not valid JSON (${(err as Error).message}); fix or delete it to start with an empty pool`,
    );
  }
}

/**
 * Holds the pool's users and sessions; with a data directory every change is
 * written through (serialised, atomic) before the caller answers the request.
 */
export class PoolStore {
  private state: PoolState;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly dataDir: string | undefined,
    state: PoolState,
  ) {
    this.state = state;
  }

  static async open(dataDir: string | undefined): Promise<PoolStore> {
    if (!dataDir) return new PoolStore(undefined, { version: 1, users: [], sessions: [] });
    await mkdir(dataDir, { recursive: true });
    // Leftovers of a write interrupted by SIGKILL; the target file is intact.
    for (const name of await readdir(dataDir)) {
      if (name.endsWith('.tmp')) await unlink(path.join(dataDir, name)).catch(() => undefined);
    }
    const loaded = await readJson<PoolState>(path.join(dataDir, STATE_FILE));
    const state: PoolState = {
      version: 1,
      users: Array.isArray(loaded?.users) ? loaded.users : [],
      sessions: Array.isArray(loaded?.sessions) ? loaded.sessions : [],
    };
    return new PoolStore(dataDir, state);
  }

  get users(): StoredUser[] {
    return this.state.users;
  }

  get sessions(): StoredSession[] {
    return this.state.sessions;
  }

  addUser(user: StoredUser): void {
    this.state.users.push(user);
  }

  removeUser(sub: string): void {
    this.state.users = this.state.users.filter((u) => u.sub !== sub);
    this.state.sessions = this.state.sessions.filter((s) => s.sub !== sub);
  }

  addSession(session: StoredSession): void {
    this.state.sessions.push(session);
  }

  /** Drops sessions that can no longer matter: refresh token expired, or revoked longer ago than an access token lives. */
  prune(nowMs: number, accessTokenTtlMs: number): void {
    this.state.sessions = this.state.sessions.filter(
      (s) => s.expiresAt > nowMs && (s.revokedAt === undefined || s.revokedAt + accessTokenTtlMs > nowMs),
    );
  }

  /** Persists the current state (no-op in memory mode). Writes are serialised; each writes the state as of its call. */
  save(): Promise<void> {
    if (!this.dataDir) return Promise.resolve();
    const file = path.join(this.dataDir, STATE_FILE);
    const snapshot = structuredClone(this.state);
    const next = this.writing.then(() => writeJsonAtomic(file, snapshot));
    this.writing = next.catch(() => undefined);
    return next;
  }

  async flush(): Promise<void> {
    await this.writing;
  }
}

export interface StoredKeys {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

export async function loadKeys(dataDir: string): Promise<StoredKeys | undefined> {
  return readJson<StoredKeys>(path.join(dataDir, KEYS_FILE));
}

export async function saveKeys(dataDir: string, keys: StoredKeys): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  await writeJsonAtomic(path.join(dataDir, KEYS_FILE), keys);
}
