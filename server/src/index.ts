/**
 * The Balcão core. Features never import this package: they use `@balcao/plugin-sdk`.
 * @packageDocumentation
 */
export { type BalcaoApp, type BuildOptions, buildApp, CORE_MIGRATIONS, migrationOwners } from './app';
export { hashPassword } from './auth/passwords';
export { type AppConfig, ConfigError, loadConfig, REPO_ROOT } from './config';
export type { CoreServices } from './core-services';
export { createKnex } from './db/knex';
export { migrateAll, migrationsTable } from './db/migrator';
export type { RegisteredRoute } from './http/route-registry';
export { createValidatorCompiler } from './http/validation';
export { type DiscoveredPlugin, discoverPlugins, PluginManifestError } from './plugins/discover';
export { migrationFiles, migrationName, moduleFiles, routeFiles } from './plugins/feature-files';
export { DEMO_LOGINS, DEMO_PASSWORD, type DemoIds, seedDemo } from './seed/demo';
export { createSuperUser, SUPER_USER_MIN_PASSWORD, SuperUserRefused } from './seed/platform';
export { DEFAULT_COMPANY_SETTINGS, PUBLIC_SETTING_DEFAULTS } from './settings/defaults';
