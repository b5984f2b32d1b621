// The CLI tests run the real command-line program from dist/, so build it once before the suite; then the migrated
// database every test place is copied from (schema-template.js). The build only emits (`--noCheck`): checking the
// types is `npm run typecheck`'s job, and skipping it here halves the build every test run waits for. The emitted
// JavaScript is the same either way (isolatedModules: each file compiles on its own).
const { execFileSync } = require('node:child_process');
const { createSchemaTemplate } = require('./schema-template');

// TEST_BUILT=1 says dist/ is fresh: CI builds once for the two passes it runs side by side.
module.exports = async () => {
  if (process.env.TEST_BUILT !== '1')
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--noCheck'], {
      cwd: `${__dirname}/../..`,
      stdio: 'inherit',
    });
  await createSchemaTemplate();
};
