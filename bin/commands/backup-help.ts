/** The help of `provena backup` and `provena restore`, apart so that `provena --help` loads no database module. */
const COMMON = `The passphrase comes from --passphrase-file <file> (mode 0600; the first line) or the environment
variable PROVENA_BACKUP_PASSPHRASE, never from the command line. Keep it apart from the archive: without
it the archive cannot be opened.

Reads the same settings as the server: DATABASE_URL (unset: the embedded SQLite database in DATA_DIR),
DATA_DIR, STORAGE_URL and S3_* (the object store). PostgreSQL needs pg_dump / pg_restore on PATH (or PG_BIN).
Progress goes to stderr; the summary to stdout (--json: one JSON object, snake_case fields).
Exit codes: 0 done, 1 failed (nothing restored when the archive does not open or check), 2 usage.`;

export const BACKUP_HELP = `Options:
  --out <file>               the archive to write (created 0600; refused if it exists, unless --force)
  --passphrase-file <file>   the file that holds the passphrase (or PROVENA_BACKUP_PASSPHRASE)
  --force                    replace an existing --out file
  --json                     print the summary as JSON

Writes one encrypted archive (scrypt + AES-256-GCM in 1 MiB records) holding a consistent snapshot of
the database (SQLite's online backup; pg_dump --format=custom of the deployment's schema and its jobs
schema), every object of the object store as stored (sealed), and the files of DATA_DIR: the key
material as stored (key-encryption.key, storage.key, root-key.passphrase) and small uploaded files.
Keys given in the environment (KEY_ENCRYPTION_KEY, STORAGE_KEY) or an HSM are not in it: the summary
says so. A running server may keep serving while it runs.

${COMMON}
`;

export const RESTORE_HELP = `Options:
  --in <file>                the archive written by provena backup
  --passphrase-file <file>   the file that holds the passphrase (or PROVENA_BACKUP_PASSPHRASE)
  --force                    write over a database, object store or DATA_DIR that is not empty
  --json                     print the summary as JSON

Restores into an EMPTY target (DATA_DIR, DATABASE_URL's schema, STORAGE_URL's object store; refused
otherwise unless --force). The archive is read twice: first every record is authenticated and every
part checked against the sha256 in its manifest, writing nothing; then the database, the objects and
the key files (0600, folders 0700) are written. A wrong passphrase or an altered archive: an error,
exit 1, nothing written. Afterwards run provena ledger-verify on the restored copy. Stop the servers
that use the target while it runs.

${COMMON}
`;

