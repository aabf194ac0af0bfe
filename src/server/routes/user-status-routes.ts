import { Hono } from 'hono';
import { z } from 'zod';
import { userNameProblem } from '../../domain/index.ts';
import { NotFoundError, ValidationError } from '../../errors/index.ts';
import type { Evident } from '../../evident.ts';
import { requireAdmin } from '../auth.ts';
import { readJson } from '../read-json.ts';
import { setUserActivity } from '../../store/user-activity.ts';
import { toUserJson } from '../schemas/user-json.ts';
import type { ServerEnv } from '../server-env.ts';

export const userStatusBody = z.object({ active: z.boolean() }).strict();

/**
 * `PATCH /v1/users/{name}`: deactivates or reactivates a user (admin only). A deactivated user's keys are refused from
 * their next request, since each request reads the user from the store, and their sessions end; reactivation lets
 * their keys work again.
 */
export function userStatusRoutes(evident: Evident): Hono<ServerEnv> {
  const { store, audit } = evident;
  return new Hono<ServerEnv>().patch('/users/:name', requireAdmin('manage users'), async (c) => {
    const name = c.req.param('name');
    // A name no user can have names no user: refused before the store is asked, and never echoed at length.
    if (userNameProblem(name)) throw new NotFoundError('user', name.slice(0, 64));
    const { active } = await readJson(c, userStatusBody);
    const actor = c.get('principal');
    if (!active && actor.id === name)
      throw new ValidationError('You cannot deactivate yourself: your own keys and sessions would stop.', {
        hint: 'Ask another admin to deactivate this user.',
      });
    const user = await setUserActivity(store, name, active);
    if (!user) throw new NotFoundError('user', name);
    await audit.admin({
      actor,
      action: active ? 'user.activate' : 'user.deactivate',
      target: name,
      surface: 'http',
    });
    return c.json({ user: toUserJson(user) });
  });
}
