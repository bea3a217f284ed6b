import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** The Postgres server tests use (trust auth on this machine; override with TEST_DATABASE_ADMIN_URL). */
export function adminUrl(): string {
  return process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** The same server, another database. */
export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function listFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full) : [full];
  });
}

/** A hash of every migration file's content: a new or changed migration means a new template. */
export function migrationsFingerprint(directories: string[]): string {
  const hash = createHash('sha256');
  for (const dir of directories) {
    for (const file of listFiles(dir).sort()) {
      hash.update(file);
      hash.update(readFileSync(file));
    }
  }
  return hash.digest('hex').slice(0, 12);
}

/**
 * Makes sure a migrated template database exists for this set of migrations, building it once (under
 * an advisory lock, so parallel test workers build it once between them). Returns its name.
 */
export async function ensureTemplate(fingerprint: string, migrate: (url: string) => Promise<void>): Promise<string> {
  const template = `balcao_tpl_${fingerprint}`;
  return withAdmin(async (client) => {
    await client.query('select pg_advisory_lock(hashtext($1))', [template]);
    try {
      const exists = await client.query('select 1 from pg_database where datname = $1', [template]);
      if (exists.rowCount === 0) {
        const building = `${template}_b${randomBytes(3).toString('hex')}`;
        await client.query(`create database "${building}"`);
        try {
          await migrate(databaseUrl(building));
          await client.query(`alter database "${building}" rename to "${template}"`);
          // its birth time, so that cleanup leaves alone the templates of other runs going on right now
          await client.query(`comment on database "${template}" is 'built ${Date.now()}'`);
        } catch (error) {
          await client.query(`drop database if exists "${building}" with (force)`);
          throw error;
        }
        // templates of other migrations are of no use once their runs are over: those built over a day ago
        // go (another run with other migrations, such as a second checkout's, may be using a newer one)
        const stale = await client.query(
          `select datname from pg_database d
            where datname like 'balcao\\_tpl\\_%' and datname <> $1 and datname not like '%\\_b%'
              and coalesce(substring(shobj_description(d.oid, 'pg_database') from 'built ([0-9]+)')::bigint, 0) < $2`,
          [template, Date.now() - 86_400_000],
        );
        for (const row of stale.rows as Array<{ datname: string }>) {
          // without force: a template another run is cloning right now (its migrations differ) stays
          await client.query(`drop database if exists "${row.datname}"`).catch(() => {});
        }
      }
      return template;
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [template]);
    }
  });
}

/** Creates a throwaway database cloned from the template; its name carries its birth time for cleanup. */
export async function cloneDatabase(template: string): Promise<string> {
  const name = `balcao_test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  await withAdmin((client) => client.query(`create database "${name}" template "${template}"`));
  return name;
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((client) => client.query(`drop database if exists "${name}" with (force)`));
}

/** Drops throwaway databases left behind by runs that crashed more than `olderThanSeconds` ago. */
export async function dropStaleDatabases(olderThanSeconds = 3_600): Promise<void> {
  const horizon = Math.floor(Date.now() / 1000) - olderThanSeconds;
  await withAdmin(async (client) => {
    const result = await client.query("select datname from pg_database where datname like 'balcao\\_test\\_%'");
    for (const { datname } of result.rows as Array<{ datname: string }>) {
      const born = Number(datname.split('_')[2]);
      if (Number.isFinite(born) && born < horizon) {
        await client.query(`drop database if exists "${datname}" with (force)`).catch(() => {});
      }
    }
  });
}
