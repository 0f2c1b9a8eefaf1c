import { backupSqlite } from '../../storage/backup.ts';
import { dumpPostgres, postgresRestoreAdvice } from '../../storage/postgres-dump.ts';
import { type Command, fileFromCaller, formatSize } from '../command.ts';

export const backupCommand: Command = {
  name: 'backup',
  usage: 'backup FILE',
  summary: 'copy the database to FILE, while the server runs (PostgreSQL: with pg_dump)',
  args: ['FILE'],
  options: {},
  async run({ args, config, print }) {
    const target = fileFromCaller(args[0]!);
    const { dataDir, databaseUrl } = config();
    if (databaseUrl) {
      const dump = await dumpPostgres(databaseUrl, target);
      print(`Backed up PostgreSQL schema "${dump.schema}" with pg_dump ${dump.pgDumpMajor} to ${dump.file} (${formatSize(dump.bytes)}).`);
      print(`To restore it: ${postgresRestoreAdvice(dump.file)}`);
      return;
    }
    const backup = await backupSqlite(dataDir, target);
    print(`Backed up ${dataDir} to ${backup.file} (${formatSize(backup.bytes)}, ${backup.users} accounts, schema ${backup.latestMigration}).`);
    print(`To restore it: stop Organiser, then npm run organiser -- restore ${JSON.stringify(backup.file)}`);
  },
};
