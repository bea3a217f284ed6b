/**
 * `npm run create-super-user`: the first super user of an installation without the demo (docs/operations.md).
 * Reads `SUPER_USER_EMAIL`, `SUPER_USER_PASSWORD` and `SUPER_USER_NAME` (default "Super") from the
 * environment, with the server's own configuration (`DATABASE_URL`, …); migrates first, like every start.
 *
 *   SUPER_USER_EMAIL=ops@example.com SUPER_USER_PASSWORD='…' npm run create-super-user
 */
import { buildApp, createSuperUser, loadConfig, SuperUserRefused } from '@balcao/server';

const email = process.env.SUPER_USER_EMAIL ?? '';
const password = process.env.SUPER_USER_PASSWORD ?? '';
const name = process.env.SUPER_USER_NAME ?? 'Super';
if (!email || !password) {
  console.error('Set SUPER_USER_EMAIL and SUPER_USER_PASSWORD (and SUPER_USER_NAME if not "Super").');
  process.exit(2);
}

const config = loadConfig({ ...process.env, ROLE: 'web' });
const balcao = await buildApp(config);
try {
  const { userId } = await createSuperUser(balcao.core.knex, {
    email,
    name,
    password,
    passwordHashCost: config.passwordHashCost,
  });
  console.log(`Super user ${email.trim().toLowerCase()} created (id ${userId}) in the platform company.`);
} catch (error) {
  if (!(error instanceof SuperUserRefused)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await balcao.close();
}
