/**
 * Writes `.gz` and `.br` siblings of every text asset (.js, .mjs, .css, .html, .json, .svg) in every build
 * output folder, so the server sends compressed files without compressing on each request
 * (@fastify/static `preCompressed`). Run by `npm run build:ui` after rspack.
 *
 *   node --import tsx scripts/precompress.ts [extra dist folders…]
 *
 * Folders: host/dist, modules/* /dist, plugins/* /dist and the dist of each folder in BALCAO_PLUGINS.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMPRESSIBLE = /\.(m?js|css|html|json|svg)$/;
/** Below this size a compressed copy saves less than its own headers cost. */
const MIN_BYTES = 256;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** The build output folders of the repository (and of the extra plugin folders named). */
export function distFolders(env: NodeJS.ProcessEnv = process.env, extra: string[] = []): string[] {
  const folders = [path.join(ROOT, 'host', 'dist')];
  for (const parent of ['modules', 'plugins']) {
    const dir = path.join(ROOT, parent);
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) folders.push(path.join(dir, entry.name, 'dist'));
    }
  }
  const fromEnv = (env.BALCAO_PLUGINS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => path.join(path.resolve(ROOT, entry), 'dist'));
  return [...new Set([...folders, ...fromEnv, ...extra.map((folder) => path.resolve(folder))])].filter((folder) =>
    existsSync(folder),
  );
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/** True when `target` exists and is at least as new as `source` (nothing to redo). */
function upToDate(source: string, target: string): boolean {
  return existsSync(target) && statSync(target).mtimeMs >= statSync(source).mtimeMs;
}

/** Compresses one file both ways; returns the number of files written. */
async function compressFile(file: string): Promise<number> {
  const gzFile = `${file}.gz`;
  const brFile = `${file}.br`;
  if (upToDate(file, gzFile) && upToDate(file, brFile)) return 0;
  const content = await readFile(file);
  if (content.length < MIN_BYTES) return 0;
  const [gz, br] = await Promise.all([
    gzipAsync(content, { level: 9 }),
    brotliAsync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
  ]);
  let written = 0;
  // a compressed copy that is not smaller is of no use to anyone
  if (gz.length < content.length) {
    await writeFile(gzFile, gz);
    written++;
  }
  if (br.length < content.length) {
    await writeFile(brFile, br);
    written++;
  }
  return written;
}

/** Compresses every text asset of the given folders, two files at a time (the machine has two cores). */
export async function precompress(folders: string[]): Promise<{ files: number; written: number }> {
  const files = folders.flatMap(listFiles).filter((file) => COMPRESSIBLE.test(file));
  let written = 0;
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++];
      if (file) written += await compressFile(file);
    }
  };
  await Promise.all([worker(), worker()]);
  return { files: files.length, written };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const folders = distFolders(process.env, process.argv.slice(2));
  const started = Date.now();
  const { files, written } = await precompress(folders);
  console.log(
    `precompress: ${files} assets in ${folders.length} folder(s), ${written} .gz/.br files written in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}
