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
import type { PostgresPool } from './pool.ts';

interface SessionRow {
  seq: string;
  id: string;
  user_name: string;
  via: SignInMethod;
  csrf_token: string;
  id_token: string | null;
  idle_ms: string;
  created_at: Date;
  last_seen_at: Date;
  idle_expires_at: Date;
  expires_at: Date;
}

const COLUMNS =
  'seq, id, user_name, via, csrf_token, id_token, idle_ms, created_at, last_seen_at, idle_expires_at, expires_at';

const toSession = (row: SessionRow): SessionRecord => ({
  id: row.id,
  user: row.user_name,
  via: row.via,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
  lastSeenAt: row.last_seen_at.toISOString(),
  idleExpiresAt: row.idle_expires_at.toISOString(),
  csrfToken: row.csrf_token,
  ...(row.id_token === null ? {} : { idToken: row.id_token }),
});

/** Sessions and sign-in states on Postgres; every statement on the primary (a revoked session must stop at once). */
export function postgresSessionStore(pool: PostgresPool): SessionStore {
  return {
    async createSession(create) {
      const { now, expires, idle } = sessionTimes(create);
      return pool.transaction('open a session', async (c) => {
        if ((await c.query('SELECT 1 FROM users WHERE name = $1 FOR SHARE', [create.user])).rowCount === 0)
          throw new NotFoundError('user', create.user);
        const made = generateSession();
        const row = (
          await c.query<SessionRow>(
            `INSERT INTO sessions (id, token_hash, user_name, via, csrf_token, id_token, idle_ms, created_at,
               last_seen_at, idle_expires_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10) RETURNING ${COLUMNS}`,
            [
              made.id,
              hashSecret(made.token),
              create.user,
              create.via,
              made.csrfToken,
              create.idToken ?? null,
              create.idleMs,
              now,
              idle,
              expires,
            ],
          )
        ).rows[0] as SessionRow;
        // A user keeps a bounded number of sessions: beyond it, their oldest end.
        await c.query(
          `DELETE FROM sessions WHERE user_name = $1 AND seq NOT IN
             (SELECT seq FROM sessions WHERE user_name = $1 ORDER BY seq DESC LIMIT $2)`,
          [create.user, MAX_SESSIONS_PER_USER],
        );
        return { token: made.token, session: toSession(row) };
      });
    },

    async findSession(token, at = new Date()) {
      if (!plausibleToken(token)) return undefined;
      return pool.withClient('check a session', async (c) => {
        const row = (
          await c.query<SessionRow>(
            `SELECT ${COLUMNS} FROM sessions WHERE token_hash = $1 AND expires_at > $2 AND idle_expires_at > $2`,
            [hashSecret(token), at],
          )
        ).rows[0];
        if (!row) return undefined;
        const idleMs = Number(row.idle_ms);
        if (!touchDue(row.last_seen_at, at, idleMs)) return toSession(row);
        const idleEnd = nextIdleEnd(at, idleMs, row.expires_at);
        // Moves the idle end only forward, so a slower concurrent request cannot pull it back.
        const touched = (
          await c.query<SessionRow>(
            `UPDATE sessions SET last_seen_at = GREATEST(last_seen_at, $2), idle_expires_at = GREATEST(idle_expires_at, $3)
             WHERE seq = $1 AND expires_at > $2 AND idle_expires_at > $2 RETURNING ${COLUMNS}`,
            [row.seq, at, idleEnd],
          )
        ).rows[0];
        return touched ? toSession(touched) : undefined;
      });
    },

    async listSessions(query) {
      assertSessionPage(query.limit);
      const after = parseSessionCursor(query.cursor);
      return pool.withClient('list sessions', async (c) => {
        const rows = (
          await c.query<SessionRow>(
            `SELECT ${COLUMNS} FROM sessions
             WHERE ($1::text IS NULL OR user_name = $1) AND ($2::bigint IS NULL OR seq < $2)
               AND expires_at > $3 AND idle_expires_at > $3
             ORDER BY seq DESC LIMIT $4`,
            [query.user ?? null, after ?? null, new Date(), query.limit + 1],
          )
        ).rows;
        const page = rows.slice(0, query.limit);
        const last = page.at(-1);
        return {
          sessions: page.map(toSession),
          nextCursor: rows.length > query.limit && last ? String(last.seq) : null,
        };
      });
    },

    async revokeSession(id) {
      return pool.withClient('revoke a session', async (c) => {
        const row = (await c.query<SessionRow>(`DELETE FROM sessions WHERE id = $1 RETURNING ${COLUMNS}`, [id]))
          .rows[0];
        return row ? toSession(row) : undefined;
      });
    },

    async revokeUserSessions(user) {
      return pool.withClient(
        'revoke sessions',
        async (c) => (await c.query('DELETE FROM sessions WHERE user_name = $1', [user])).rowCount ?? 0,
      );
    },

    async sweepExpiredSessions(at = new Date()) {
      return pool.transaction('sweep expired sessions', async (c) => {
        const ended = await c.query('DELETE FROM sessions WHERE expires_at <= $1 OR idle_expires_at <= $1', [at]);
        const states = await c.query('DELETE FROM sign_in_states WHERE expires_at <= $1', [at]);
        return (ended.rowCount ?? 0) + (states.rowCount ?? 0);
      });
    },

    async saveSignInState(state) {
      const expires = assertValidSignInState(state);
      await pool.withClient('save a sign-in state', async (c) => {
        const inserted = await c.query(
          `INSERT INTO sign_in_states (state_hash, nonce, code_verifier, return_to, expires_at)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (state_hash) DO NOTHING`,
          [hashSecret(state.state), state.nonce, state.codeVerifier, state.returnTo, expires],
        );
        if (inserted.rowCount === 0) throw new ValidationError('This sign-in state is already recorded.');
      });
    },

    async takeSignInState(state, at = new Date()) {
      if (!plausibleState(state)) return undefined;
      return pool.withClient('take a sign-in state', async (c) => {
        const row = (
          await c.query<{ nonce: string; code_verifier: string; return_to: string; expires_at: Date }>(
            'DELETE FROM sign_in_states WHERE state_hash = $1 RETURNING nonce, code_verifier, return_to, expires_at',
            [hashSecret(state)],
          )
        ).rows[0];
        if (!row || row.expires_at <= at) return undefined;
        return {
          state,
          nonce: row.nonce,
          codeVerifier: row.code_verifier,
          returnTo: row.return_to,
          expiresAt: row.expires_at.toISOString(),
        };
      });
    },
  };
}
