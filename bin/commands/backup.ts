import { parseArgs } from 'node:util';
import { readEnv } from '../../server/env.ts';
import { readSecretFile } from '../../server/keys/keyring.ts';
import { runBackup, runRestore, type BackupSummary, type RestoreSummary } from '../../server/backup/backup.ts';
import { BackupError } from '../../server/backup/sealed-stream.ts';
import { BACKUP_HELP, RESTORE_HELP } from './backup-help.ts';

const OPTIONS = {
  out: { type: 'string' },
  in: { type: 'string' },
  'passphrase-file': { type: 'string' },
  passphrase: { type: 'string' },
  force: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function readPassphrase(file: string | undefined, source: NodeJS.ProcessEnv): string {
  if (file) {
    let text: string;
    try {
      text = readSecretFile(file);
    } catch (error) {
      throw new BackupError(`cannot read --passphrase-file: ${(error as Error).message}`);
    }
    const first = text.split(/\r?\n/)[0] ?? '';
    if (!first) throw new BackupError(`${file} is empty`);
    return first;
  }
  const fromEnv = source.PROVENA_BACKUP_PASSPHRASE;
  if (fromEnv) return fromEnv;
  throw new BackupError('no passphrase: give --passphrase-file <file> or set PROVENA_BACKUP_PASSPHRASE');
}

function printBackup(s: BackupSummary): string {
  const lines = [
    `backup written: ${s.archive} (${s.archive_bytes} bytes, ${s.seconds} s)`,
    `  database: ${s.dialect}, ${s.database_bytes} bytes, ledger height ${s.ledger_height}`,
    `  objects: ${s.objects} (${s.object_bytes} bytes)${s.skipped_newer_checkpoints ? `; ${s.skipped_newer_checkpoints} checkpoints newer than the snapshot left out` : ''}`,
    `  data files: ${s.files} (key material: ${s.key_files.join(', ') || 'none in DATA_DIR'})`,
    ...s.not_included.map((n) => `  not in the archive: ${n}`),
  ];
  return `${lines.join('\n')}\n`;
}

function printRestore(s: RestoreSummary): string {
  return `restored from ${s.archive} (made ${s.created_at}, ${s.seconds} s)
  database: ${s.dialect}, ${s.database_bytes} bytes, ledger height ${s.ledger_height}
  objects: ${s.objects} (${s.object_bytes} bytes)
  data files: ${s.files} (key material: ${s.key_files.join(', ') || 'none'})
next: provena ledger-verify
`;
}

function makeCommand(action: 'backup' | 'restore') {
  return {
    async run(args: string[]): Promise<number> {
      const help = action === 'backup' ? BACKUP_HELP : RESTORE_HELP;
      let values: { out?: string; in?: string; 'passphrase-file'?: string; passphrase?: string; force?: boolean; json?: boolean; help?: boolean };
      try {
        values = parseArgs({ args, options: OPTIONS, allowPositionals: false }).values;
      } catch (error) {
        process.stderr.write(`provena ${action}: ${(error as Error).message}\n\n${help}`);
        return 2;
      }
      if (values.help) {
        process.stdout.write(help);
        return 0;
      }
      if (values.passphrase !== undefined) {
        process.stderr.write(`provena ${action}: a passphrase on the command line would be seen by every user of this machine (ps, shell history): use --passphrase-file <file> or PROVENA_BACKUP_PASSPHRASE\n`);
        return 2;
      }
      const file = action === 'backup' ? values.out : values.in;
      if (!file || (action === 'backup' ? values.in : values.out) !== undefined) {
        process.stderr.write(`provena ${action}: ${action === 'backup' ? '--out <file>' : '--in <file>'} is required\n\n${help}`);
        return 2;
      }
      try {
        const passphrase = readPassphrase(values['passphrase-file'], process.env);
        if (action === 'backup' && [...passphrase].length < 12) throw new BackupError('the passphrase must be at least 12 characters long');
        const env = readEnv(process.env);
        const progress = (line: string) => process.stderr.write(`${line}\n`);
        const summary = action === 'backup' ? await runBackup({ env, out: file, passphrase, progress, isForce: values.force }) : await runRestore({ env, input: file, passphrase, progress, isForce: values.force });
        if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
        else process.stdout.write(action === 'backup' ? printBackup(summary as BackupSummary) : printRestore(summary as RestoreSummary));
        return 0;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (values.json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
        process.stderr.write(`provena ${action}: ${message}\n`);
        return 1;
      }
    },
  };
}

export const backupCommand = makeCommand('backup');
export const restoreCommand = makeCommand('restore');
