/** `npm run seed`: inserts the demo (idempotent; never changes existing rows). */
import { buildApp, DEMO_LOGINS, DEMO_PASSWORD, loadConfig, seedDemo } from '@balcao/server';

const config = loadConfig({ ...process.env, ROLE: 'web' });
const balcao = await buildApp(config);
try {
  await seedDemo(balcao.core.knex, { passwordHashCost: config.passwordHashCost, plugins: balcao.plugins });
  console.log(`Demo seeded. Logins (password ${DEMO_PASSWORD}): ${DEMO_LOGINS.map((l) => l.email).join(', ')}`);
} finally {
  await balcao.close();
}
