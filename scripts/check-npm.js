// Runs before `npm install` / `npm ci` installs anything: older npm ignores package.json's allowScripts and
// .npmrc's strict-allow-scripts, and would run every dependency's install script (a telemetry one among them).
const agent = process.env.npm_config_user_agent || '';
const version = /^npm\/(\d+)\.(\d+)\./.exec(agent);
const [major, minor] = version ? [Number(version[1]), Number(version[2])] : [0, 0];
if (major < 11 || (major === 11 && minor < 19)) {
  console.error(
    `This project installs with npm 11.19 or newer (found: ${agent.split(' ')[0] || 'an unknown client'}), ` +
      'which runs only the install scripts package.json approves. Upgrade with "npm install -g npm@11", then install again.',
  );
  process.exit(1);
}
