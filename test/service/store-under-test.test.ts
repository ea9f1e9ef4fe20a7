// The project a test runs in decides the store its services use: this shows the postgres project's services
// really are on PostgreSQL (and the sqlite project's on SQLite), so a suite passing twice means both stores.
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { serviceForFile, TEST_STORE } from '../helpers/service.ts';

describe('the store under test', () => {
  const { svc } = serviceForFile();

  it('is the one the test project names', async () => {
    const res = await request(`${svc.url}/readyz`);
    const body = (await res.body.json()) as { status: string; store: string };
    expect(res.statusCode).toBe(200);
    expect(body.store.split(' ')[0]).toBe(TEST_STORE);
    expect(svc.db.startsWith('postgresql://')).toBe(TEST_STORE === 'postgres');
  });
});
