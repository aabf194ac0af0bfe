import { NotFoundError, ValidationError } from '../../errors/index.ts';
import type { SessionRecord, SessionStore, SignInMethod } from '../ports/session-store.ts';
import {
  assertSessionPage,
  assertValidSignInState,
  generateSession,
  hashSecret,
  MAX_SESSIONS_PER_USER,
  nextIdleEnd,
  parseSessionCursor,
  plausibleState,
  plausibleToken,
  sessionTimes,
  touchDue,
} from '../session-rules.ts';
import type { SqliteConnection } from './connection.ts';

interface SessionRow {
  seq: number;
  id: string;
  user_name: string;
  via: SignInMethod;
  csrf_token: string;
  id_token: string | null;
  idle_ms: number;
  created_at: string;
  last_seen_at: string;
  idle_expires_at: string;
  expires_at: string;
}

const COLUMNS =
  'seq, id, user_name, via, csrf_token, id_token, idle_ms, created_at, last_seen_at, idle_expires_at, expires_at';

const toSession = (row: SessionRow): SessionRecord => ({
  id: row.id,
  user: row.user_name,
  via: row.via,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastSeenAt: row.last_seen_at,
  idleExpiresAt: row.idle_expires_at,
  csrfToken: row.csrf_token,
  ...(row.id_token === null ? {} : { idToken: row.id_token }),
});

/** Sessions and sign-in states on SQLite; times are ISO strings, which compare in time order. */
export function sqliteSessionStore(conn: SqliteConnection): SessionStore {
  const stmt = (sql: string) => conn.stmt(sql);
  return {
    async createSession(create) {
      conn.assertWritable();
      const { now, expires, idle } = sessionTimes(create);
      return conn.guard('open a session', () =>
        conn.immediate(() => {
          if (!stmt('SELECT 1 FROM users WHERE name = ?').get(create.user))
            throw new NotFoundError('user', create.user);
          const made = generateSession();
          const row = stmt(
            `INSERT INTO sessions (id, token_hash, user_name, via, csrf_token, id_token, idle_ms, created_at,
               last_seen_at, idle_expires_at, expires_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
          ).get(
            made.id,
            hashSecret(made.token),
            create.user,
            create.via,
            made.csrfToken,
            create.idToken ?? null,
            create.idleMs,
            now.toISOString(),
            now.toISOString(),
            idle.toISOString(),
            expires.toISOString(),
          ) as SessionRow;
          // A user keeps a bounded number of sessions: beyond it, their oldest end.
          stmt(
            `DELETE FROM sessions WHERE user_name = ? AND seq NOT IN
               (SELECT seq FROM sessions WHERE user_name = ? ORDER BY seq DESC LIMIT ?)`,
          ).run(create.user, create.user, MAX_SESSIONS_PER_USER);
          return { token: made.token, session: toSession(row) };
        }),
      );
    },

    async findSession(token, at = new Date()) {
      if (!plausibleToken(token)) return undefined;
      return conn.guard('check a session', () => {
        const row = stmt(`SELECT ${COLUMNS} FROM sessions WHERE token_hash = ?`).get(hashSecret(token)) as
          | SessionRow
          | undefined;
        const when = at.toISOString();
        if (!row || row.expires_at <= when || row.idle_expires_at <= when) return undefined;
        if (!conn.db.readonly && touchDue(new Date(row.last_seen_at), at, row.idle_ms)) {
          const idleEnd = nextIdleEnd(at, row.idle_ms, new Date(row.expires_at)).toISOString();
          stmt('UPDATE sessions SET last_seen_at = ?, idle_expires_at = ? WHERE seq = ?').run(when, idleEnd, row.seq);
          return toSession({ ...row, last_seen_at: when, idle_expires_at: idleEnd });
        }
        return toSession(row);
      });
    },

    async listSessions(query) {
      assertSessionPage(query.limit);
      const after = parseSessionCursor(query.cursor);
      const now = new Date().toISOString();
      return conn.guard('list sessions', () => {
        const rows = stmt(
          `SELECT ${COLUMNS} FROM sessions
           WHERE (@user IS NULL OR user_name = @user) AND (@after IS NULL OR seq < @after)
             AND expires_at > @now AND idle_expires_at > @now
           ORDER BY seq DESC LIMIT @limit`,
        ).all({ user: query.user ?? null, after: after ?? null, now, limit: query.limit + 1 }) as SessionRow[];
        const page = rows.slice(0, query.limit);
        const last = page.at(-1);
        return {
          sessions: page.map(toSession),
          nextCursor: rows.length > query.limit && last ? String(last.seq) : null,
        };
      });
    },

    async revokeSession(id) {
      conn.assertWritable();
      return conn.guard('revoke a session', () => {
        const row = stmt(`DELETE FROM sessions WHERE id = ? RETURNING ${COLUMNS}`).get(id) as SessionRow | undefined;
        return row ? toSession(row) : undefined;
      });
    },

    async revokeUserSessions(user) {
      conn.assertWritable();
      return conn.guard('revoke sessions', () => stmt('DELETE FROM sessions WHERE user_name = ?').run(user).changes);
    },

    async sweepExpiredSessions(at = new Date()) {
      conn.assertWritable();
      const when = at.toISOString();
      return conn.guard('sweep expired sessions', () =>
        conn.immediate(
          () =>
            stmt('DELETE FROM sessions WHERE expires_at <= ? OR idle_expires_at <= ?').run(when, when).changes +
            stmt('DELETE FROM sign_in_states WHERE expires_at <= ?').run(when).changes,
        ),
      );
    },

    async saveSignInState(state) {
      conn.assertWritable();
      const expires = assertValidSignInState(state);
      conn.guard('save a sign-in state', () => {
        const inserted = stmt(
          `INSERT INTO sign_in_states (state_hash, nonce, code_verifier, return_to, expires_at)
           VALUES (?, ?, ?, ?, ?) ON CONFLICT (state_hash) DO NOTHING`,
        ).run(hashSecret(state.state), state.nonce, state.codeVerifier, state.returnTo, expires.toISOString());
        if (inserted.changes === 0) throw new ValidationError('This sign-in state is already recorded.');
      });
    },

    async takeSignInState(state, at = new Date()) {
      if (!plausibleState(state)) return undefined;
      conn.assertWritable();
      return conn.guard('take a sign-in state', () => {
        const row = stmt(
          'DELETE FROM sign_in_states WHERE state_hash = ? RETURNING nonce, code_verifier, return_to, expires_at',
        ).get(hashSecret(state)) as
          | { nonce: string; code_verifier: string; return_to: string; expires_at: string }
          | undefined;
        if (!row || row.expires_at <= at.toISOString()) return undefined;
        return {
          state,
          nonce: row.nonce,
          codeVerifier: row.code_verifier,
          returnTo: row.return_to,
          expiresAt: row.expires_at,
        };
      });
    },
  };
}
