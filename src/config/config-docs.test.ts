import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOCS_BEGIN, CONFIG_DOCS_END, renderConfigReference, withConfigReference } from './config-docs.ts';
import { ENV_VARS } from './env-vars.ts';

const PAGE = fileURLToPath(new URL('../../docs/configuration.md', import.meta.url));
const REGENERATE = 'npx tsx scripts/config-docs.ts';

describe('docs/configuration.md', () => {
  const page = readFileSync(PAGE, 'utf8');
  const committed = page.slice(page.indexOf(CONFIG_DOCS_BEGIN), page.indexOf(CONFIG_DOCS_END) + CONFIG_DOCS_END.length);
  const generated = renderConfigReference();

  it('holds the reference generated from the config schema', () => {
    expect(
      committed === generated,
      `docs/configuration.md is out of date with the config schema: run \`${REGENERATE}\` and commit the page`,
    ).toBe(true);
    expect(withConfigReference(page, generated)).toBe(page);
  });

  it('names every EVIDENT_* variable in the row of the setting it sets', () => {
    for (const variable of ENV_VARS) {
      const row = generated.split('\n').find((line) => line.startsWith(`| \`${variable.path.join('.')}\` |`));
      expect(row, variable.path.join('.')).toBeDefined();
      for (const name of variable.names) expect(row, name).toContain(`\`${name}\``);
    }
  });

  it('describes every setting', () => {
    const rows = generated.split('\n').filter((line) => /^\| `[a-zA-Z.]+` \|/.test(line));
    expect(rows.length).toBeGreaterThan(60);
    for (const row of rows) expect(row.split(' | ').at(-1), row).toMatch(/\w.* \|$/);
  });
});
