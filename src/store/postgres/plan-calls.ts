/**
 * The functions a table query may call, read from Postgres's own plan of it (EXPLAIN VERBOSE deparses every
 * expression: no quoting, `U&` escape or cast hides a call there). An allow-list: arithmetic, text, date and
 * aggregate functions that read nothing but their arguments. A function that runs SQL text (`ts_stat`, `ts_rewrite`,
 * `query_to_xml`, …), reads files, settings or the catalog is not on it; the query's role (table-roles.ts) is the
 * wall behind this one, and the catalog (which every role may read) is why this one stays.
 */

const FUNCTIONS = `
  abs cbrt ceil ceiling degrees div exp floor ln log log10 mod pi power pow radians round sign sqrt trunc width_bucket
  random greatest least coalesce nullif numeric int2 int4 int8 float4 float8 text bool date
  lower upper initcap length char_length character_length octet_length bit_length substr substring strpos position
  replace translate concat concat_ws left right lpad rpad ltrim rtrim btrim trim reverse repeat split_part starts_with
  format regexp_replace regexp_match regexp_matches regexp_split_to_array regexp_split_to_table regexp_like
  regexp_count regexp_substr regexp_instr like_escape md5 to_hex ascii chr quote_literal quote_nullable
  to_char to_number to_date to_timestamp date_part date_trunc extract age make_date make_time make_timestamp
  make_interval justify_days justify_hours justify_interval isfinite now timezone
  count sum avg min max stddev stddev_pop stddev_samp variance var_pop var_samp bool_and bool_or every string_agg
  array_agg percentile_cont percentile_disc mode corr covar_pop covar_samp regr_slope regr_intercept regr_count
  row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
  generate_series unnest array_length array_lower array_upper cardinality array_to_string string_to_array
  array_position array_positions array_remove array_replace array_append array_prepend array_cat
`;

/** Words of SQL that a deparsed expression writes before a parenthesis without calling anything. */
const KEYWORDS = `
  and or not is in like ilike similar between case when then else end from as by asc desc nulls using on over filter
  within group partition order rows range groups preceding following current row distinct any all some array exists
  values with returns collate escape to at zone time timestamp interval numeric decimal varchar varying character
  char bit float double precision integer int bigint smallint real boolean cast unbounded first last
`;

const words = (list: string): Set<string> => new Set(list.split(/\s+/u).filter(Boolean));
const ALLOWED = new Set([...words(FUNCTIONS), ...words(KEYWORDS)]);

/** Casts to reg* types read the catalog by name (`'other_table'::regclass`), without a call. */
const CATALOG_CAST = /::\s*"?reg\w+/iu;
const QUOTED_CALL = /"((?:[^"]|"")+)"\s*\(/gu;
const LITERAL = /'(?:[^']|'')*'/gu;
const QUOTED_NAME = /"(?:[^"]|"")*"/gu;
const BARE_CALL = /(?:([A-Za-z_][\w$]*)\s*\.\s*)?([A-Za-z_][\w$]*)\s*\(/gu;

/** The names an expression of a plan calls, lower-cased, with the schema a call names (`''` when none). */
export function callsIn(expression: string): { schema: string; name: string }[] {
  const text = expression.replace(LITERAL, "''");
  const quoted = [...text.matchAll(QUOTED_CALL)].map((match) => ({
    schema: '',
    name: (match[1] as string).replace(/""/gu, '"').toLowerCase(),
  }));
  const bare = [...text.replace(QUOTED_NAME, ' ').matchAll(BARE_CALL)].map((match) => ({
    schema: (match[1] ?? '').toLowerCase(),
    name: (match[2] as string).toLowerCase(),
  }));
  return [...quoted, ...bare];
}

/** Every string a plan holds (expressions, keys, names), depth first. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) stringsOf(item, out);
  return out;
}

/** The first call (or catalog cast) of a plan that is not on the allow-list, or `undefined` when there is none. */
export function forbiddenCall(plan: unknown): string | undefined {
  for (const text of stringsOf(plan)) {
    if (CATALOG_CAST.test(text)) return 'a reg* cast';
    for (const call of callsIn(text)) {
      if (call.schema && call.schema !== 'pg_catalog') return `${call.schema}.${call.name}`;
      if (!ALLOWED.has(call.name)) return call.name;
    }
  }
  return undefined;
}
