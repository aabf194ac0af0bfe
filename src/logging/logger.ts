export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** Library code logs through this, never through console: the CLI decides where lines go. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Writes `level message {fields}` lines to stderr at or above `level`. */
export function createStderrLogger(level: LogLevel = 'warn'): Logger {
  const write = (at: Exclude<LogLevel, 'silent'>) => (message: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    process.stderr.write(`${at} ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
