/**
 * Writes the generated config reference (every setting: key, variable, default, range, description) into
 * docs/configuration.md, between its markers. Run after changing the config schema: `npx tsx scripts/config-docs.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withConfigReference } from '../src/config/config-docs.ts';

const page = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));
const before = readFileSync(page, 'utf8');
const after = withConfigReference(before);
if (after === before) console.log('docs/configuration.md is up to date');
else {
  writeFileSync(page, after);
  console.log('docs/configuration.md: config reference rewritten');
}
