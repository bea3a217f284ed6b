import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/config';

/**
 * scripts/restore.sh (docs/operations.md "Backups and restore") against real PostgreSQL: a throwaway
 * database dumped with `pg_dump -Fc` as the docs say, restored into another that holds stale rows and a
 * newer table, with the storage folder copied back; the database and the files match the backup.
 */
const run = promisify(execFile);
/** The Postgres server tests use (as the SDK's test kit: TEST_DATABASE_ADMIN_URL, else the local one). */
const adminUrl = () => process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseUrl = (name: string) => {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
};
const suffix = randomBytes(4).toString('hex');
const source = `ops_restore_src_${suffix}`;
const target = `ops_restore_dst_${suffix}`;
const work = mkdtempSync(path.join(tmpdir(), 'ops-restore-'));

async function sql(database: string | null, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: database ? databaseUrl(database) : adminUrl() });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await sql(null, `CREATE DATABASE ${source}`);
  await sql(null, `CREATE DATABASE ${target}`);
});
afterAll(async () => {
  await sql(null, `DROP DATABASE IF EXISTS ${source} WITH (FORCE)`);
  await sql(null, `DROP DATABASE IF EXISTS ${target} WITH (FORCE)`);
  rmSync(work, { recursive: true, force: true });
});

describe('scripts/restore.sh', () => {
  it('restores the database from a pg_dump and the storage folder from its copy', async () => {
    await sql(
      source,
      `CREATE TABLE companies (id int PRIMARY KEY);
       INSERT INTO companies SELECT generate_series(1, 9);
       CREATE TABLE messages (id serial PRIMARY KEY, "companyId" int NOT NULL REFERENCES companies, body text);
       INSERT INTO messages ("companyId", body) SELECT 1 + g % 3, 'mensagem ' || g FROM generate_series(1, 250) g;`,
    );
    // the instance to restore over has moved on (an upgrade): other rows, and a table the backup doesn't
    // know whose foreign key holds on to the backup's companies
    await sql(
      target,
      `CREATE TABLE companies (id int PRIMARY KEY);
       INSERT INTO companies SELECT generate_series(1, 9);
       CREATE TABLE messages (id serial PRIMARY KEY, "companyId" int NOT NULL REFERENCES companies, body text);
       INSERT INTO messages ("companyId", body) VALUES (9, 'depois do backup');
       CREATE TABLE later (id int, "companyId" int REFERENCES companies);
       INSERT INTO later VALUES (1, 9);`,
    );
    const dump = path.join(work, 'balcao.dump');
    await run('pg_dump', ['--format=custom', '--file', dump, databaseUrl(source)]);

    const backup = path.join(work, 'storage-backup');
    mkdirSync(path.join(backup, '1', 'media'), { recursive: true });
    writeFileSync(path.join(backup, '1', 'media', 'foto.jpg'), 'jpeg bytes');
    const storage = path.join(work, 'storage');
    mkdirSync(path.join(storage, '2'), { recursive: true });
    writeFileSync(path.join(storage, '2', 'orphan.txt'), 'written after the backup');

    const { stdout } = await run('bash', [
      path.join(REPO_ROOT, 'scripts', 'restore.sh'),
      '--dump',
      dump,
      '--database-url',
      databaseUrl(target),
      '--storage-backup',
      backup,
      '--storage-dir',
      storage,
    ]);
    expect(stdout).toContain('restore: done');

    const count = async (database: string) =>
      (await sql(database, `SELECT count(*)::int AS n, sum(id)::int AS ids FROM messages`)).rows[0] as { n: number; ids: number };
    expect(await count(target)).toEqual(await count(source));
    expect((await count(target)).n).toBe(250);
    // the database is the backup's: newer rows and the newer table are gone
    const bodies = await sql(target, `SELECT count(*)::int AS n FROM messages WHERE body = 'depois do backup'`);
    expect(bodies.rows[0]).toEqual({ n: 0 });
    expect((await sql(target, `SELECT to_regclass('public.later') AS later`)).rows[0]).toEqual({ later: null });
    expect(readFileSync(path.join(storage, '1', 'media', 'foto.jpg'), 'utf8')).toBe('jpeg bytes');
    expect(existsSync(path.join(storage, '2', 'orphan.txt'))).toBe(false);
  });

  it('refuses a file that is not a dump before touching the database', async () => {
    const bogus = path.join(work, 'not-a-dump');
    writeFileSync(bogus, 'hello');
    await expect(
      run('bash', [path.join(REPO_ROOT, 'scripts', 'restore.sh'), '--dump', bogus, '--database-url', databaseUrl(target)]),
    ).rejects.toMatchObject({
      code: 1,
    });
    expect((await sql(target, `SELECT count(*)::int AS n FROM messages`)).rows[0]).toEqual({ n: 250 });
  });
});
