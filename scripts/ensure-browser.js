// The Chromium that the browser tests (test/browser/, playwright-core) drive: a system one, never a downloaded
// build. `npm test` runs this file first (pretest): with none installed, where this user may install packages
// (root, or sudo without a password) and apt-get is there, it installs Debian's `chromium`; elsewhere it stops
// and says what to do. test/support/browser.ts launches the one `findChromium()` finds.
const { execFileSync, spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');

const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
];

/** Where to look: `CHROMIUM_PATH` alone when it is set, else the usual system paths. */
function candidates(env = process.env) {
  return env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : SYSTEM_CHROMIUMS;
}

/** The Chromium binary the browser tests launch, or null when there is none. */
function findChromium(env = process.env) {
  return candidates(env).find((path) => existsSync(path)) ?? null;
}

/** What to do when no Chromium can be found or installed. */
function missingChromiumMessage(env = process.env) {
  return [
    `The browser tests (test/browser/) need Chromium, and there is none at ${candidates(env).join(', ')}.`,
    '  On Debian:   sudo apt-get install -y chromium   (npm test does it itself as root or with passwordless sudo)',
    '  Elsewhere:   install Chromium or Chrome from your system packages and set CHROMIUM_PATH to its binary.',
    'The tests never download a browser: do not run "npx playwright install".',
  ].join('\n');
}

/** The command prefix that runs apt-get as root (`[]` when this is root), or null when this user may not. */
function aptAsRoot() {
  if (!existsSync('/usr/bin/apt-get')) return null;
  if (process.getuid?.() === 0) return [];
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0 ? ['sudo', '-n'] : null;
}

function installDebianChromium(asRoot) {
  const apt = (...args) => {
    const [command, ...rest] = [...asRoot, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-q', ...args];
    execFileSync(command, rest, { stdio: 'inherit' });
  };
  console.log("browser tests: no Chromium installed; installing Debian's chromium with apt-get");
  try {
    apt('update');
    apt('install', '-y', 'chromium');
  } catch (error) {
    console.error(`browser tests: apt-get failed (${error.message.split('\n')[0]})`);
  }
}

if (require.main === module) {
  const asRoot = process.env.CHROMIUM_PATH ? null : aptAsRoot();
  if (!findChromium() && asRoot) installDebianChromium(asRoot);
  const chromium = findChromium();
  if (!chromium) {
    console.error(missingChromiumMessage());
    process.exit(1);
  }
  console.log(`browser tests: Chromium at ${chromium}`);
}

module.exports = { findChromium, missingChromiumMessage };
