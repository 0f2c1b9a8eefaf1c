import { restoreSqlite } from '../../storage/backup.ts';
import { postgresRestoreAdvice } from '../../storage/postgres-dump.ts';
import { type Command, CommandError, fileFromCaller, formatSize } from '../command.ts';

export const restoreCommand: Command = {
  name: 'restore',
  usage: 'restore FILE',
  summary: 'replace the database of a stopped installation with the backup FILE',
  args: ['FILE'],
  options: {},
  async run({ args, config, print }) {
    const source = fileFromCaller(args[0]!);
    const { dataDir, databaseUrl } = config();
    if (databaseUrl) throw new CommandError(postgresRestoreAdvice(source));
    const restored = await restoreSqlite(source, dataDir);
    print(`Restored ${source} into ${restored.file} (${formatSize(restored.bytes)}, ${restored.users} accounts, schema ${restored.latestMigration}).`);
    if (restored.previous) print(`The database it replaced is kept as ${restored.previous}; delete it once you are content.`);
    print('Start Organiser (npm start): it brings the schema up to date if the backup is from an older version.');
  },
};
