import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Principal } from '../../domain/index.ts';
import { ValidationError } from '../../errors/index.ts';
import { formatZodIssues, type LocatedCase } from './read-cases.ts';

const usersSchema = z.array(z.object({ name: z.string().min(1), groups: z.array(z.string()).default([]) }));

/** Users by name with their groups, and the file they came from (for error messages). */
export interface UserDirectory {
  file: string | undefined;
  groups: ReadonlyMap<string, readonly string[]>;
}

export async function readUsers(file: string | undefined): Promise<UserDirectory> {
  if (file === undefined) return { file, groups: new Map() };
  if (!existsSync(file))
    throw new ValidationError(`The users file ${file} does not exist.`, {
      hint: 'Pass a JSON array of {"name": "alice", "groups": ["legal"]}.',
    });
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    throw new ValidationError(`${file} is not valid JSON.`, {
      cause,
      hint: 'Pass a JSON array of {"name": "alice", "groups": ["legal"]}.',
    });
  }
  const parsed = usersSchema.safeParse(value);
  if (!parsed.success)
    throw new ValidationError(`${file} is not a users file: ${formatZodIssues(parsed.error)}.`, {
      hint: 'Pass a JSON array of {"name": "alice", "groups": ["legal"]}.',
    });
  return { file, groups: new Map(parsed.data.map((user) => [user.name, user.groups])) };
}

/**
 * Who asks a case: its user with the case's `groups` when it gives them, else the users file's. With a users file, a
 * user it does not list (and the case gives no groups) is an error; without one, the user has only the case's groups.
 */
export function principalForCase({ evalCase, file, line }: LocatedCase, users: UserDirectory): Principal {
  const groups = evalCase.groups ?? users.groups.get(evalCase.user);
  if (!groups && users.file !== undefined) {
    throw new ValidationError(
      `${file}:${line}: case "${evalCase.id}" asks as "${evalCase.user}", who is not in ${users.file}.`,
      {
        hint: `Add {"name": "${evalCase.user}", "groups": […]} to ${users.file}, or give the case its own "groups".`,
      },
    );
  }
  return { id: evalCase.user, groups: [...(groups ?? [])], roles: ['member'] };
}
