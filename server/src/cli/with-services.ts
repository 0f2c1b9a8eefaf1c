import type { Config } from '../config.ts';
import type { Services } from '../services.ts';
import { migrate, openStorage, type Storage } from '../storage/database.ts';

/**
 * The application's services as the server builds them, on the same configuration, without
 * HTTP and without starting their jobs (a command sends no notices). The schema is brought up to
 * date first, as at the server's start, so a command works on an installation not yet started.
 * The services are loaded here, not at the program's start: backup and restore do without them.
 */
export async function withServices<T>(config: Config, work: (services: Services, storage: Storage) => Promise<T>): Promise<T> {
  const storage = await openStorage({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrate(storage);
    const { createServices } = await import('../services.ts');
    const services = await createServices({ config, storage, log: console });
    try {
      return await work(services, storage);
    } finally {
      await services.close();
    }
  } finally {
    await storage.close();
  }
}
