// Which command an `evident` argument list names (bin/evident.js runs `search` from the CLI's bundle).

/** The CLI's global options that take a value (src/cli/main.ts), so their values are not taken for the command. */
const VALUED = new Set(['--db', '--database-url', '--database-read-urls', '--config', '--embedder', '--reranker']);

/** The first argument that is neither an option nor a global option's value; undefined when there is none. */
export function commandOf(args) {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('-')) return arg;
    if (VALUED.has(arg)) i++;
  }
  return undefined;
}
