import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, openTestStorage, testDialects } from '../test/test-app.ts';
import type { Storage } from './database.ts';
import { settingsStore } from './settings.store.ts';

describe.each(testDialects)('the settings store on %s', (dialect) => {
  let storage: Storage;

  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    storage = await openTestStorage(database);
    return async () => {
      await storage.close();
      await database.drop();
    };
  });

  it('reads what was last written under a key, and nothing under a key never written', async () => {
    const settings = settingsStore(storage.db);
    const read = settings.reader('colour');
    expect(await read()).toBeUndefined();
    await settings.write('colour', 'red');
    await settings.write('colour', 'blue');
    expect(await read()).toBe('blue');
    expect(await settings.reader('size')()).toBeUndefined();
  });

  it('keeps the first value written once, whoever writes again', async () => {
    const first = settingsStore(storage.db);
    const second = settingsStore(storage.db);
    expect(await first.writeOnce('secret', 'one')).toBe('one');
    expect(await second.writeOnce('secret', 'two')).toBe('one');
    expect(await first.reader('secret')()).toBe('one');
  });
});
