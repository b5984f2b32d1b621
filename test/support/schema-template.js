// A migrated, empty database made once per test run, which every test place starts as a copy of: running the
// migrations is most of what a new database costs (over a second of DDL on MariaDB), a copy a fraction of it.
// Plain JavaScript: jest's global setup and teardown load it as they are, after the build it relies on.
const { randomBytes } = require('node:crypto');
const { copyFileSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const DIST = join(__dirname, '../../dist/src/database');
const SQLITE_TEMPLATE = 'TEST_SQLITE_TEMPLATE';
const MYSQL_TEMPLATE = 'TEST_MYSQL_TEMPLATE';

/** Runs every migration into a new database (and nothing else: no seed, no default store), then closes it. */
async function migrate(databaseUrl) {
  const { DataSource } = require('typeorm');
  const { dataSourceOptions, detectServer } = require(`${DIST}/data-source-options`);
  const { runMigrations } = require(`${DIST}/migrate`);
  const dataSource = await new DataSource(await detectServer(dataSourceOptions(databaseUrl))).initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** From jest's global setup: makes the template and names it in the environment the test workers inherit. */
async function createSchemaTemplate() {
  const base = process.env.DATABASE_URL ?? '';
  if (base.startsWith('mysql')) {
    const url = new URL(base);
    const name = `${url.pathname.slice(1) || 'shop'}_tpl_${randomBytes(4).toString('hex')}`;
    const admin = await adminConnection(url);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
    url.pathname = `/${name}`;
    await migrate(url.toString());
    process.env[MYSQL_TEMPLATE] = name;
    return;
  }
  const file = join(mkdtempSync(join(tmpdir(), 'shop-template-')), 'shop.sqlite');
  await migrate(`sqlite:${file}`);
  process.env[SQLITE_TEMPLATE] = file;
}

/** From jest's global teardown. */
async function dropSchemaTemplate() {
  if (process.env[MYSQL_TEMPLATE]) {
    const admin = await adminConnection(new URL(process.env.DATABASE_URL));
    await admin.query(`DROP DATABASE IF EXISTS \`${process.env[MYSQL_TEMPLATE]}\``);
    await admin.end();
  }
  if (process.env[SQLITE_TEMPLATE]) rmSync(join(process.env[SQLITE_TEMPLATE], '..'), { recursive: true, force: true });
}

/** The template's tables as `CREATE TABLE` statements, and those holding rows a migration seeded; read once per worker. */
let mysqlTables;
let mysqlSeeded;

/** Fills the new, empty database `name` (SQLite: the file) as a copy of the template; false without a template. */
async function copySchemaTemplate(target) {
  if (target.sqliteFile) {
    if (!process.env[SQLITE_TEMPLATE]) return false;
    copyFileSync(process.env[SQLITE_TEMPLATE], target.sqliteFile);
    return true;
  }
  const template = process.env[MYSQL_TEMPLATE];
  if (!template) return false;
  const admin = await adminConnection(target.mysqlUrl);
  try {
    if (!mysqlTables) ({ creates: mysqlTables, seeded: mysqlSeeded } = await readMysqlTables(admin, template));
    await admin.query(`USE \`${target.mysqlDatabase}\``);
    await admin.query('SET FOREIGN_KEY_CHECKS = 0');
    for (const create of mysqlTables) await admin.query(create);
    // The migrations table, and the rows migrations seed (the VAT rates).
    for (const name of mysqlSeeded)
      await admin.query(`INSERT INTO \`${name}\` SELECT * FROM \`${template}\`.\`${name}\``);
  } finally {
    await admin.end();
  }
  return true;
}

async function readMysqlTables(admin, template) {
  const [tables] = await admin.query(
    `SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'`,
    [template],
  );
  const creates = [];
  const seeded = [];
  for (const { name } of tables) {
    const [[row]] = await admin.query(`SHOW CREATE TABLE \`${template}\`.\`${name}\``);
    // A table's counter starts again at 1, as in a database the migrations made.
    creates.push(row['Create Table'].replace(/ AUTO_INCREMENT=\d+/, ''));
    const [[{ filled }]] = await admin.query(`SELECT EXISTS(SELECT 1 FROM \`${template}\`.\`${name}\`) AS filled`);
    if (Number(filled)) seeded.push(name);
  }
  return { creates, seeded };
}

function adminConnection(url) {
  const { createConnection } = require('mysql2/promise');
  return createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  });
}

module.exports = { createSchemaTemplate, dropSchemaTemplate, copySchemaTemplate };
