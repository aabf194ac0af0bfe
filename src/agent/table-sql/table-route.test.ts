import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.ts';
import type { Principal } from '../../domain/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { offlineTableRoute } from './table-route.ts';

const OPS: Principal = { id: 'olga', groups: ['ops'], roles: ['member'] };
const GUEST: Principal = { id: 'gus', groups: ['guests'], roles: ['member'] };

const root = mkdtempSync(join(tmpdir(), 'evident-table-route-'));
let evident: Evident;

beforeAll(async () => {
  evident = await createEvident(configSchema.parse({ db: join(root, 'evident.db') }));
  const shipments = join(root, 'shipments.csv');
  writeFileSync(
    shipments,
    'shipment_id,carrier,weight_kg,state\nS-1,Dhl,12.5,delivered\nS-2,Ups,3,lost\nS-3,Dhl,7,delivered\n',
  );
  const guide = join(root, 'carrier-guide.md');
  writeFileSync(
    guide,
    '# Carrier events\n\nThe shipment.delivered event is emitted when the carrier scans the parcel at the door; a lost parcel is reported after 10 days without a scan.\n',
  );
  expect(await evident.ingestor.ingest([shipments], { acl: ['group:ops', 'group:guests'] })).toMatchObject({
    added: 1,
    failed: 0,
  });
  expect(await evident.ingestor.ingest([guide], { acl: ['group:ops'] })).toMatchObject({ added: 1, failed: 0 });
});
afterAll(async () => {
  await evident.close();
  rmSync(root, { recursive: true, force: true });
});

describe('offlineTableRoute: a measured choice between a table and the text', () => {
  it('sends a question about the rows to the table without searching the text', async () => {
    const decision = await offlineTableRoute('What is the weight_kg of shipment S-2?', OPS, evident.store);
    expect(decision.route).toBe('table');
    expect(decision.plan?.sql).toContain(`"shipment_id" IN ('S-2')`);
  });

  it('sends a question naming an identifier that only the text holds to retrieval, although a cell matches', async () => {
    const decision = await offlineTableRoute('When is the shipment.delivered event emitted?', OPS, evident.store);
    expect(decision.route).toBe('retrieve');
    expect(decision.plan).toBeUndefined();
    expect(decision.reason).toContain('shipment.delivered');
  });

  it('weighs only text the principal may read: without the guide, the table is all there is', async () => {
    const decision = await offlineTableRoute('When is the shipment.delivered event emitted?', GUEST, evident.store);
    expect(decision.route).toBe('table');
  });

  it('prefers a passage that explains more of the question than the table does', async () => {
    const decision = await offlineTableRoute(
      'After how many days without a scan is a lost parcel reported by the carrier?',
      OPS,
      evident.store,
    );
    expect(decision.route).toBe('retrieve');
  });
});
