// The CLI tests run the real command-line program from dist/, so build it once before the suite.
const { execSync } = require('node:child_process');

module.exports = async () => {
  execSync('npx tsc -p tsconfig.build.json', { cwd: `${__dirname}/../..`, stdio: 'inherit' });
};
