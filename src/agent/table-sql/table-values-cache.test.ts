import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.ts';
import type { Principal } from '../../domain/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { loadTableSchemas } from './table-schemas.ts';

const OPS: Principal = { id: 'olga', groups: ['ops'], roles: ['member'] };
const root = mkdtempSync(join(tmpdir(), 'evident-table-values-'));
const file = join(root, 'carriers.csv');
let evident: Evident;

beforeAll(async () => {
  evident = await createEvident(configSchema.parse({ db: join(root, 'evident.db') }));
});
afterAll(async () => {
  await evident.close();
  rmSync(root, { recursive: true, force: true });
});

const cells = async (): Promise<readonly string[] | undefined> =>
  (await loadTableSchemas(evident.store, OPS))[0]?.values?.carrier;

describe('the column values the table strategy reads', () => {
  it('are read again once the table is ingested again with other cells (same shape), and only for who may see it', async () => {
    writeFileSync(file, 'carrier,parcels\nDhl,3\nUps,4\n');
    await evident.ingestor.ingest([file], { acl: ['group:ops'] });
    expect(await cells()).toEqual(['Dhl', 'Ups']);
    expect(await cells()).toEqual(['Dhl', 'Ups']);
    writeFileSync(file, 'carrier,parcels\nFedex,3\nUps,4\n');
    expect(await evident.ingestor.ingest([file], { acl: ['group:ops'] })).toMatchObject({ failed: 0 });
    expect(await cells()).toEqual(['Fedex', 'Ups']);
    expect(await loadTableSchemas(evident.store, { id: 'gus', groups: ['guests'], roles: ['member'] })).toEqual([]);
  });
});
