#!/usr/bin/env bash
# Restores one whole Balcão instance from a backup (docs/operations.md "Backups and restore"):
#   1. the database, from a custom-format dump (`pg_dump -Fc`), into DATABASE_URL — its `public` schema is
#      REPLACED: dropped with everything in it (tables newer than the backup too) and recreated from the
#      dump, in one transaction, so a failed restore leaves the database as it was;
#   2. the uploaded files, from a copy of STORAGE_DIR, into STORAGE_DIR (files not in the copy are removed,
#      so the files match the rows that point at them).
# Stop every Balcão process first (web and worker): a running process would write between the two steps.
#
#   scripts/restore.sh --dump balcao.dump --storage-backup /backups/storage \
#     [--database-url postgres://…] [--storage-dir /data/storage]
#
# DATABASE_URL and STORAGE_DIR are read from the environment when the options are absent.
set -euo pipefail

usage() {
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

dump=""
storage_backup=""
database_url="${DATABASE_URL:-}"
storage_dir="${STORAGE_DIR:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --dump) dump="$2"; shift 2 ;;
    --storage-backup) storage_backup="$2"; shift 2 ;;
    --database-url) database_url="$2"; shift 2 ;;
    --storage-dir) storage_dir="$2"; shift 2 ;;
    -h | --help) usage ;;
    *) echo "restore: unknown option $1" >&2; usage ;;
  esac
done

[ -n "$dump" ] || { echo "restore: --dump is required" >&2; exit 2; }
[ -n "$database_url" ] || { echo "restore: --database-url (or DATABASE_URL) is required" >&2; exit 2; }
[ -f "$dump" ] || { echo "restore: no dump at $dump" >&2; exit 1; }
if [ -n "$storage_backup" ]; then
  [ -d "$storage_backup" ] || { echo "restore: no storage backup folder at $storage_backup" >&2; exit 1; }
  [ -n "$storage_dir" ] || { echo "restore: --storage-dir (or STORAGE_DIR) is required with --storage-backup" >&2; exit 2; }
fi

# a dump pg_restore can't read stops here, before anything is dropped
pg_restore --list "$dump" > /dev/null

echo "restore: database from $dump (replacing the public schema)"
# The schema is replaced rather than the dump's objects dropped one by one (`pg_restore --clean`): a
# table created after the backup (a newer version's migration) keeps foreign keys to the dump's tables
# and makes their DROP fail. pg_restore writes the dump as SQL; psql runs it after the schema is
# recreated, all in one transaction that stops at the first error.
{
  echo 'DROP SCHEMA IF EXISTS public CASCADE;'
  echo 'CREATE SCHEMA public;'
  pg_restore --no-owner --no-privileges --file - "$dump"
} | psql --quiet --no-psqlrc --single-transaction --set ON_ERROR_STOP=1 --dbname "$database_url" > /dev/null

if [ -n "$storage_backup" ]; then
  echo "restore: files from $storage_backup into $storage_dir"
  mkdir -p "$storage_dir"
  # emptied, not replaced: STORAGE_DIR may be a mount point (a volume, a PersistentVolumeClaim)
  find "$storage_dir" -mindepth 1 -delete
  cp -a "$storage_backup/." "$storage_dir/"
fi
echo "restore: done"
