import { Hono } from 'hono';
import { z } from 'zod';
import { groupNameProblem, MAX_USER_GROUPS, userNameProblem } from '../../domain/index.ts';
import { userOutcome } from '../../audit/user-outcome.ts';
import { NotFoundError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import { requireAdmin } from '../auth.ts';
import { readJson } from '../read-json.ts';
import { toUserJson } from '../schemas/user-json.ts';
import type { ServerEnv } from '../server-env.ts';

/** A zod check that says what the domain's rule says (the store runs the same rule again on upsertUser). */
const ruled = (problem: (text: string) => string | undefined) =>
  z.string().superRefine((text, ctx) => {
    const found = problem(text);
    if (found) ctx.addIssue({ code: 'custom', message: found });
  });

export const userBody = z
  .object({
    name: ruled(userNameProblem),
    groups: z.array(ruled(groupNameProblem)).max(MAX_USER_GROUPS).default([]),
    roles: z
      .array(z.enum(['admin', 'member']))
      .min(1)
      .optional(),
  })
  .strict();

/** Users and their API keys: admin only. A created key is in the response once and never again. */
export function userRoutes(evident: Evident): Hono<ServerEnv> {
  const { store } = evident;
  // Each change is recorded in the audit log once made; a failed record fails the response (the change stands).
  const audit = evident.audit;
  return new Hono<ServerEnv>()
    .use('/users', requireAdmin('manage users'))
    .use('/users/*', requireAdmin('manage users'))
    .use('/keys/*', requireAdmin('manage API keys'))
    .get('/users', async (c) => c.json({ users: (await store.listUsers()).map(toUserJson) }))
    .post('/users', async (c) => {
      const body = await readJson(c, userBody);
      const existed = (await store.getUser(body.name)) !== undefined;
      const user = await store.upsertUser({
        name: body.name,
        groups: body.groups,
        ...(body.roles ? { roles: body.roles } : {}),
      });
      await audit.admin({
        actor: c.get('principal'),
        action: existed ? 'user.update' : 'user.add',
        target: user.name,
        surface: 'http',
        outcome: userOutcome(user),
      });
      return c.json({ user: toUserJson(user) }, 201);
    })
    .get('/users/:name/keys', async (c) => {
      const name = c.req.param('name');
      if (!(await store.getUser(name))) throw new NotFoundError('user', name);
      const keys = await store.listApiKeys(name);
      return c.json({ keys: keys.map((k) => ({ id: k.id, user: k.user, created_at: k.createdAt })) });
    })
    .post('/users/:name/keys', async (c) => {
      const name = c.req.param('name');
      const created = await store.createApiKey(name);
      await audit.admin({
        actor: c.get('principal'),
        action: 'key.create',
        target: created.id,
        surface: 'http',
        outcome: `for ${name}`,
      });
      return c.json({ id: created.id, user: name, key: created.key }, 201);
    })
    .delete('/keys/:id', async (c) => {
      const id = c.req.param('id');
      if (!(await store.revokeApiKey(id))) throw new NotFoundError('API key', id);
      await audit.admin({ actor: c.get('principal'), action: 'key.revoke', target: id, surface: 'http' });
      return c.json({ revoked: id });
    });
}
