// The CLI tests run the real command-line program from dist/, so build it once before the suite; then the migrated
// database every test place is copied from (schema-template.js).
const { execSync } = require('node:child_process');
const { createSchemaTemplate } = require('./schema-template');

module.exports = async () => {
  execSync('npx tsc -p tsconfig.build.json', { cwd: `${__dirname}/../..`, stdio: 'inherit' });
  await createSchemaTemplate();
};
