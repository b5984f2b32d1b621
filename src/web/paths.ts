import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The project root (where package.json is), from source under ts-jest or compiled under dist/. */
function findRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${from}`);
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findRoot(__dirname);
export const VIEWS_DIR = join(PROJECT_ROOT, 'views');
export const PUBLIC_DIR = join(PROJECT_ROOT, 'public');
export const LOCALES_DIR = join(PROJECT_ROOT, 'locales');
