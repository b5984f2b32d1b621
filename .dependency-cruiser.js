/**
 * Architecture boundaries (docs/architecture.md), checked in CI:
 * plugins depend on the plugin API only (it re-exports the commerce ports and shared infrastructure they may
 * use); commerce never reaches into an area; areas do not reach into each other; sandbox/ is imported only by
 * the bootstrap and tests.
 */
const INFRA = '^src/(cache|common|config|database|jobs|mail|redis|web)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'plugins-use-the-plugin-api-only',
      comment: 'A plugin imports src/plugin-api/ and its own folder, nothing else of the app.',
      severity: 'error',
      from: { path: '^src/plugins/([^/]+)/' },
      to: { path: '^src/', pathNot: ['^src/plugins/$1/', '^src/plugin-api/'] },
    },
    {
      name: 'plugin-api-offers-commerce-and-infrastructure',
      comment: 'The plugin API re-exports commerce/ ports and shared infrastructure; it knows no area or plugin.',
      severity: 'error',
      from: { path: '^src/plugin-api/' },
      to: { path: '^src/', pathNot: ['^src/plugin-api/', '^src/commerce/', INFRA] },
    },
    {
      name: 'commerce-uses-only-the-plugin-declaration',
      comment: 'commerce/ declares its built-in methods like a plugin; the rest of the API sits above it.',
      severity: 'error',
      from: { path: '^src/commerce/' },
      to: { path: '^src/plugin-api/', pathNot: '^src/plugin-api/storefront-plugin\\.ts$' },
    },
    {
      name: 'commerce-depends-on-no-area',
      comment: 'commerce/ is the shared domain: it never imports a plugin, a shop area, the CP or flows.',
      severity: 'error',
      from: { path: '^src/commerce/' },
      to: { path: '^src/(plugins|shop|cp|flow|sandbox|cli)/' },
    },
    {
      name: 'shop-and-cp-are-http-only',
      comment: 'Storefront areas and the CP are controllers, DTOs and views: data access and writes live in commerce/.',
      severity: 'error',
      from: { path: '^src/(shop|cp)/' },
      to: {
        path: ['node_modules/(@nestjs/)?typeorm/', '^src/database/(transaction-runner|locking|upsert)\\.ts$'],
      },
    },
    {
      name: 'commerce-knows-no-express',
      comment: 'commerce/ takes plain values (a session, an id), never a request or a response.',
      severity: 'error',
      from: { path: '^src/commerce/' },
      to: { path: 'node_modules/(@types/)?express(-serve-static-core)?/' },
    },
    {
      name: 'shop-areas-stay-apart',
      comment: 'Shop areas talk through commerce/, not through each other.',
      severity: 'error',
      from: { path: '^src/shop/([^/]+)/' },
      to: { path: '^src/shop/', pathNot: '^src/shop/$1/' },
    },
    {
      name: 'areas-not-into-plugins',
      severity: 'error',
      from: {
        path: '^src/(shop|flow|commerce|plugin-api|cache|common|config|database|jobs|mail|web)/',
        pathNot: '^src/database/entities\\.ts$',
      },
      to: { path: '^src/plugins/' },
    },
    {
      name: 'entity-list-knows-only-plugin-tables',
      comment: 'The entity list names every table, plugin tables too, and nothing else of a plugin.',
      severity: 'error',
      from: { path: '^src/database/entities\\.ts$' },
      to: { path: '^src/plugins/', pathNot: '\\.entity\\.ts$' },
    },
    {
      name: 'sandbox-only-from-bootstrap',
      comment: 'The stand-ins for outside services are mounted by the app module and used by tests only.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/app\\.module\\.ts$', '^src/sandbox/'] },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'sandbox-uses-no-app-code',
      comment:
        'A sandbox speaks the outside service wire format only; it does not know our internals. It may return ' +
        'the HTTP answer classes, which are plain data.',
      severity: 'error',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/', pathNot: ['^src/sandbox/', '^src/common/', '^src/web/answers/answers\\.ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^dist/' },
  },
};
