import type { ConfigInput } from '../config/index.ts';
import { LOCAL_OPERATOR, type Principal } from '../domain/principal.ts';
import { ValidationError } from '../errors/index.ts';
import type { Evident } from '../evident.ts';

/** Options every command accepts (declared on the root program). */
export interface GlobalOptions {
  db?: string;
  databaseUrl?: string;
  /** Comma-separated, as EVIDENT_DATABASE_READ_URLS. */
  databaseReadUrls?: string;
  config?: string;
  embedder?: string;
  reranker?: string;
  debug?: boolean;
}

const splitUrls = (list: string): string[] =>
  list
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);

/** Builds the config from flags > env > evident.config.json, opens Evident, runs `work`, and always closes it. */
export async function withEvident<T>(
  global: GlobalOptions,
  flags: ConfigInput,
  work: (evident: Evident) => Promise<T>,
): Promise<T> {
  // Loaded here, not at the top: `evident --help` and the parsing of every command need none of the engine.
  const [{ loadConfig }, { createEvident }, { createStderrLogger }] = await Promise.all([
    import('../config/index.ts'),
    import('../evident.ts'),
    import('../logging/logger.ts'),
  ]);
  const config = loadConfig({
    flags: {
      ...flags,
      ...(global.db ? { db: global.db } : {}),
      ...(global.databaseUrl ? { databaseUrl: global.databaseUrl } : {}),
      ...(global.databaseReadUrls ? { databaseReadUrls: splitUrls(global.databaseReadUrls) } : {}),
      ...(global.embedder ? { embedder: global.embedder } : {}),
      ...(global.reranker ? { reranker: global.reranker } : {}),
      ...(global.debug ? { debug: true } : {}),
    },
    ...(global.config ? { configFile: global.config } : {}),
  });
  const evident = await createEvident(config, { logger: createStderrLogger(config.debug ? 'debug' : 'warn') });
  try {
    return await work(evident);
  } finally {
    await evident.close();
  }
}

export interface PrincipalFlags {
  as?: string;
  groups?: string;
}

/**
 * Who the command acts as: `--as <user>` (groups from the store), `--groups a,b` (an ad-hoc member of those
 * groups), or, with neither, the local operator who owns the store file and sees everything.
 */
export async function principalFromFlags(evident: Evident, flags: PrincipalFlags): Promise<Principal> {
  if (flags.as && flags.groups !== undefined) {
    throw new ValidationError('Use either --as <user> or --groups <a,b>, not both.', {
      hint: "--as takes the user's groups from the store.",
    });
  }
  if (flags.as) return evident.principalFor(flags.as);
  if (flags.groups !== undefined) {
    const groups = flags.groups
      .split(',')
      .map((group) => group.trim())
      .filter(Boolean);
    // The id names the group set, so two ad-hoc principals with different groups never share a thread's history.
    // It cannot match a `user:` ACL entry, whose names have no colon.
    return { id: `groups:${[...new Set(groups)].sort().join(',')}`, groups, roles: ['member'] };
  }
  return LOCAL_OPERATOR;
}

/** Parses a positive integer flag, or throws a ValidationError naming the flag. */
export function intFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new ValidationError(`${name} must be a positive integer, got ${JSON.stringify(value)}.`);
  }
  return parsed;
}
