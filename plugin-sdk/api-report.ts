/**
 * The SDK's API reports: one per entry point of its package.json `exports`, written by API Extractor to
 * `plugin-sdk/api/<entry>.api.md` and committed, so that a change to the contract shows as a diff of these
 * files in review and bumps the version by the rule of plugin-sdk/CHANGELOG.md.
 *
 *   node --import tsx plugin-sdk/api-report.ts           # check (npm test): fails when a report would change
 *   node --import tsx plugin-sdk/api-report.ts --local   # refresh the reports (npm run api-report)
 *
 * API Extractor reads declarations, and the SDK ships TypeScript sources: tsc first emits the declarations
 * (plugin-sdk/tsconfig.api.json, into node_modules/.cache), then every entry point is reported from one
 * shared compiler state, which keeps the check to one TypeScript program for the nine entry points.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type ExtractorMessage,
  type IConfigFile,
} from '@microsoft/api-extractor';

const SDK_ROOT = import.meta.dirname;
const REPO_ROOT = path.dirname(SDK_ROOT);
// outside node_modules: TypeScript takes any file under a node_modules folder for an external library's
const CACHE = path.join(SDK_ROOT, '.api-build');
const DECLARATIONS = path.join(CACHE, 'dts');
const REPORTS = path.join(SDK_ROOT, 'api');

/** `./testing/ui` → `testing-ui`: the report's file name (`testing-ui.api.md`). */
export function reportName(entry: string): string {
  return entry.replace(/^\.\//, '').replaceAll('/', '-');
}

/** Each entry point of the package and the declaration file tsc emits for its source. */
export function entryPoints(): Array<{ entry: string; declaration: string }> {
  const pkg = JSON.parse(readFileSync(path.join(SDK_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string> };
  return Object.entries(pkg.exports)
    .filter(([, target]) => /\.tsx?$/.test(target))
    .map(([entry, target]) => ({
      entry,
      declaration: path.join(DECLARATIONS, target.replace(/^\.\/src\//, '').replace(/\.tsx?$/, '.d.ts')),
    }));
}

function emitDeclarations(): void {
  rmSync(DECLARATIONS, { recursive: true, force: true });
  const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(SDK_ROOT, 'tsconfig.api.json')], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`tsc could not emit the SDK's declarations:\n${result.stdout}${result.stderr}`);
  }
}

function configOf(declaration: string, name: string): ExtractorConfig {
  const configObject: IConfigFile = {
    projectFolder: SDK_ROOT,
    mainEntryPointFilePath: declaration,
    compiler: {
      overrideTsconfig: {
        compilerOptions: {
          target: 'ES2023',
          module: 'ESNext',
          moduleResolution: 'bundler',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          jsx: 'react-jsx',
          types: ['node'],
          strict: true,
          esModuleInterop: true,
          skipLibCheck: true,
          resolveJsonModule: true,
        },
        files: [path.join(SDK_ROOT, 'src', 'ui', 'globals.d.ts')],
        include: [path.join(DECLARATIONS, '**', '*.d.ts')],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: `${name}.api.md`,
      reportFolder: REPORTS,
      reportTempFolder: path.join(CACHE, 'temp'),
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    newlineKind: 'lf',
    messages: {
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
      // the reports list the contract; release tags (ae-missing-release-tag …) and TSDoc style are not part of it
      extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.None, addToApiReportFile: false } },
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None, addToApiReportFile: false } },
    },
  };
  return ExtractorConfig.prepare({
    configObject,
    configObjectFullPath: undefined,
    packageJsonFullPath: path.join(SDK_ROOT, 'package.json'),
  });
}

/** Writes (`local`) or checks every report; returns the entry points whose report differs (check mode). */
export function runApiReports(local: boolean): string[] {
  emitDeclarations();
  mkdirSync(REPORTS, { recursive: true });
  const entries = entryPoints();
  const missing = entries.filter(({ declaration }) => !existsSync(declaration)).map(({ entry }) => entry);
  if (missing.length > 0) throw new Error(`no declarations emitted for ${missing.join(', ')}`);
  const configs = entries.map(({ entry, declaration }) => ({ entry, config: configOf(declaration, reportName(entry)) }));
  const [first] = configs;
  if (!first) throw new Error('the SDK exports no entry point');
  const compilerState = CompilerState.create(first.config, {
    additionalEntryPoints: configs.map(({ config }) => config.mainEntryPointFilePath),
  });
  const changed: string[] = [];
  for (const { entry, config } of configs) {
    const problems: string[] = [];
    const result = Extractor.invoke(config, {
      localBuild: local,
      compilerState,
      messageCallback: (message: ExtractorMessage) => {
        message.handled = true;
        // a report written or found different is what `apiReportChanged` tells
        if (message.messageId.startsWith('console-api-report-')) return;
        if (message.logLevel === 'error' || message.logLevel === 'warning') {
          problems.push(message.formatMessageWithLocation(REPO_ROOT));
        }
      },
    });
    if (problems.length > 0) throw new Error(`API Extractor on ${entry}:\n${problems.join('\n')}`);
    if (result.apiReportChanged) changed.push(entry);
    else if (!result.succeeded) throw new Error(`API Extractor failed on ${entry}`);
  }
  return changed;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const local = process.argv.includes('--local');
  const changed = runApiReports(local);
  if (local) {
    console.log(changed.length > 0 ? `API reports updated: ${changed.join(', ')}` : 'API reports unchanged');
  } else if (changed.length > 0) {
    console.error(
      `The SDK's contract changed (${changed.join(', ')}): run "npm run api-report", review the diff of plugin-sdk/api/, ` +
        'and bump the version by the rule of plugin-sdk/CHANGELOG.md.',
    );
    process.exitCode = 1;
  } else {
    console.log('API reports match the SDK.');
  }
}
