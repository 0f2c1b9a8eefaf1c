import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { migrate, openStorage } from './storage/database.ts';
import { checkpointInBackground } from './storage/wal-checkpoints.ts';

async function main() {
  const config = loadConfig();
  const storage = await openStorage({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await migrate(storage);
  const app = await buildApp({ config, storage, logger: { level: config.logLevel } });
  const checkpoints = storage.dialect === 'sqlite' ? await checkpointInBackground(storage.db, storage.sqliteFile, app.log) : undefined;
  app.addHook('onClose', async () => {
    await checkpoints?.stop();
    await storage.close();
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { storage: storage.dialect, dataDir: storage.dialect === 'sqlite' ? config.dataDir : undefined },
    'Organiser is ready',
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Organiser could not start:', error);
  }
  process.exit(1);
});
