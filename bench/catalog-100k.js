// The bench's generated catalog (default 100,000 products): written straight into the database with multi-row
// INSERTs in one transaction, because the HTTP or CLI import would take minutes at this size. Products come with
// a category tree (10 top-level categories × 10 children; each product in one or two of the children, one of
// them primary), attributes (brand 50 values, colour 12, size 6, material 8; 3–4 per product, carried by the
// variants for the configurable tenth) and related / cross-sell products (on the configurable tenth, which holds
// the product page the bench measures). Search needs nothing extra: on SQLite
// the ProductSearch migration's triggers feed `products_fts` row by row; on MySQL/MariaDB the FULLTEXT indexes
// are InnoDB's own. The same seed gives the same catalog on both databases.
const Database = require('better-sqlite3');
const mysql = require('mysql2/promise');

const ADJECTIVES = [
  'Alpine',
  'Trail',
  'Summit',
  'Ridge',
  'Forest',
  'Canyon',
  'Glacier',
  'Harbor',
  'Meadow',
  'Storm',
  'Aurora',
  'Basalt',
  'Cedar',
  'Delta',
  'Ember',
  'Fjord',
  'Granite',
  'Highland',
  'Island',
  'Juniper',
];
const NOUNS = [
  'Tent',
  'Lantern',
  'Kettle',
  'Grinder',
  'Backpack',
  'Mug',
  'Stove',
  'Blanket',
  'Bottle',
  'Jacket',
  'Mat',
  'Hammock',
  'Headlamp',
  'Cooler',
  'Chair',
  'Tarp',
  'Knife',
  'Compass',
  'Gloves',
  'Beanie',
  'Socks',
  'Boots',
  'Poles',
  'Pot',
  'Filter',
  'Dripper',
  'Thermos',
  'Sleeping Bag',
  'Pillow',
  'Rope',
];
const TOP_CATEGORIES = [
  'Tents',
  'Lighting',
  'Cooking',
  'Coffee',
  'Backpacks',
  'Clothing',
  'Sleeping',
  'Hydration',
  'Footwear',
  'Tools',
];
const CHILD_CATEGORIES = [
  'Classic',
  'Ultralight',
  'Family',
  'Expedition',
  'Kids',
  'Compact',
  'Pro',
  'Travel',
  'Winter',
  'Summer',
];
const BRAND_PARTS = ['North', 'Wild', 'Peak', 'Blue', 'Iron', 'Nordic', 'Pine', 'Stone', 'Red', 'Silver'];
const BRAND_ENDS = ['Gear', 'Works', 'Outdoor', 'Camp', 'Co'];
/** brand: 50 values. Slugs are the filter URL's (`f.brand=north-gear`). */
const ATTRIBUTES = [
  { code: 'brand', name: 'Brand', values: BRAND_PARTS.flatMap((part) => BRAND_ENDS.map((end) => `${part} ${end}`)) },
  {
    code: 'colour',
    name: 'Colour',
    values: ['Red', 'Blue', 'Green', 'Black', 'White', 'Grey', 'Yellow', 'Orange', 'Brown', 'Purple', 'Pink', 'Navy'],
  },
  { code: 'size', name: 'Size', values: ['XS', 'S', 'M', 'L', 'XL', 'XXL'] },
  {
    code: 'material',
    name: 'Material',
    values: ['Cotton', 'Wool', 'Nylon', 'Polyester', 'Steel', 'Aluminium', 'Titanium', 'Leather'],
  },
];
const IMAGES = ['ridgeline-2-person-tent', 'firefly-led-lantern', 'camp-pour-over-kettle', 'hand-burr-grinder'];
/** Options of the configurable products; their codes are the attributes' so the variants carry those values. */
const VARIANT_SIZES = ['S', 'M', 'L'];
const VARIANT_COLOURS = ['Red', 'Blue'];
const ROWS_PER_INSERT = 2000;

const slugOf = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const skuOf = (n) => `BENCH-CAT-${String(n).padStart(6, '0')}`;

/** mulberry32: a small seeded generator, so every run (and both databases) get the same catalog. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Adds `size` products (SKUs BENCH-CAT-000001…) with their categories and attributes to the default store of the
 * database at `databaseUrl` (sqlite:… or mysql://…), whose schema the service has migrated. Checks the row counts
 * afterwards and throws when one is off. Returns what the scenarios need to build their URLs.
 */
async function generateCatalog(databaseUrl, size) {
  const database = databaseUrl.startsWith('sqlite:') ? sqlite(databaseUrl) : await mariadb(databaseUrl);
  try {
    const [{ id: storeId }] = await database.select('SELECT id FROM stores WHERE isDefault = 1');
    const next = {};
    for (const table of ['products', 'product_variants', 'categories', 'attributes', 'attribute_values']) {
      const [{ top }] = await database.select(`SELECT MAX(id) AS top FROM ${table}`);
      next[table] = Number(top ?? 0) + 1;
    }
    const existing = {
      categories: await database.select(`SELECT id, path AS \`key\` FROM categories WHERE storeId = ${storeId}`),
      attributes: await database.select(`SELECT id, code AS \`key\` FROM attributes WHERE storeId = ${storeId}`),
      values: await database.select(`SELECT id, attributeId, slug FROM attribute_values`),
    };
    const rows = catalogRows(storeId, size, { ...next }, existing);
    await database.transaction(async () => {
      for (const [table, tableRows] of Object.entries(rows.tables)) await database.insertAll(table, tableRows);
    });
    await checkCounts(database, rows, next);
    return rows.summary;
  } finally {
    await database.close();
  }
}

/**
 * Every row to insert, by table in insert order, with the ids assigned here (each table's next free id on).
 * Categories (by path), attributes (by code) and their values (by slug) the shop already has are used, not added:
 * the demo catalog's import may have made some.
 */
function catalogRows(storeId, size, next, existing) {
  const random = seeded(20261127);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const categories = [];
  const leaves = [];
  const known = (list, key) => list.find((row) => row.key === key);
  const category = (row) => {
    const found = known(existing.categories, row.path);
    if (found) return { ...row, id: found.id };
    categories.push({ ...row, id: next.categories++ });
    return categories[categories.length - 1];
  };
  TOP_CATEGORIES.forEach((name, position) => {
    const top = category({ storeId, parentId: null, name, slug: slugOf(name), path: slugOf(name), position });
    CHILD_CATEGORIES.forEach((childName, childPosition) => {
      const slug = slugOf(childName);
      leaves.push(
        category({
          storeId,
          parentId: top.id,
          name: `${name}: ${childName}`,
          slug,
          path: `${top.path}/${slug}`,
          position: childPosition,
        }),
      );
    });
  });
  const attributes = [];
  const attributeValues = [];
  /** code → value label → value row */
  const valueByLabel = {};
  ATTRIBUTES.forEach(({ code, name, values }, position) => {
    const attributeId = known(existing.attributes, code)?.id ?? next.attributes++;
    if (!known(existing.attributes, code))
      attributes.push({ id: attributeId, storeId, code, name, position, filterable: 1 });
    valueByLabel[code] = {};
    values.forEach((value, valuePosition) => {
      const slug = slugOf(value);
      const found = existing.values.find((row) => row.attributeId === attributeId && row.slug === slug);
      const row = { id: found?.id ?? next.attribute_values++, attributeId, value, slug, position: valuePosition };
      if (!found) attributeValues.push(row);
      valueByLabel[code][value] = row;
    });
  });
  const valueRow = (productId, variantId, code, label) => {
    const value = valueByLabel[code][label];
    return { productId, variantId, attributeId: value.attributeId, attributeValueId: value.id };
  };
  const products = [];
  const variants = [];
  const productCategories = [];
  const productValues = [];
  const relations = [];
  const firstId = next.products;
  const idOf = (n) => firstId + ((n - 1 + size) % size);
  for (let n = 1; n <= size; n++) {
    const index = n - 1;
    const id = next.products++;
    const brand = pick(ATTRIBUTES[0].values);
    const name = `${brand} ${pick(ADJECTIVES)} ${pick(NOUNS)} ${n}`;
    const stock = index % 17 === 0 ? 0 : (index * 13) % 60;
    const configurable = index % 10 === 0;
    products.push({
      id,
      storeId,
      sku: skuOf(n),
      slug: slugOf(name),
      name,
      description: `${name}: made for long days outside and a good cup of coffee at camp. Model ${n}.`,
      type: configurable ? 'configurable' : 'simple',
      price: 500 + Math.floor(random() * 50000),
      stock: configurable ? stock * VARIANT_SIZES.length * VARIANT_COLOURS.length : stock,
      visible: 1,
      enabled: 1,
      images: JSON.stringify([`/public/images/products/${IMAGES[index % IMAGES.length]}.svg`]),
      options: JSON.stringify(
        configurable
          ? [
              { code: 'size', label: 'Size', values: VARIANT_SIZES },
              { code: 'colour', label: 'Colour', values: VARIANT_COLOURS },
            ]
          : [],
      ),
    });
    const primary = pick(leaves);
    productCategories.push({ productId: id, categoryId: primary.id, isPrimary: 1 });
    if (random() < 0.5) {
      const second = pick(leaves);
      if (second !== primary) productCategories.push({ productId: id, categoryId: second.id, isPrimary: 0 });
    }
    productValues.push(valueRow(id, null, 'brand', brand), valueRow(id, null, 'material', pick(ATTRIBUTES[3].values)));
    if (configurable) {
      for (const sizeLabel of VARIANT_SIZES) {
        for (const colour of VARIANT_COLOURS) {
          const variantId = next.product_variants++;
          variants.push({
            id: variantId,
            productId: id,
            sku: `${skuOf(n)}-${sizeLabel}-${slugOf(colour)}`,
            options: JSON.stringify({ size: sizeLabel, colour }),
            stock,
          });
          productValues.push(valueRow(id, variantId, 'size', sizeLabel), valueRow(id, variantId, 'colour', colour));
        }
      }
    } else {
      productValues.push(valueRow(id, null, 'colour', pick(ATTRIBUTES[1].values)));
      if (random() < 0.5) productValues.push(valueRow(id, null, 'size', pick(ATTRIBUTES[2].values)));
    }
    if (configurable) {
      [1, 2, 3, 4].forEach((step, position) =>
        relations.push({ productId: id, relatedProductId: idOf(n + step), kind: 'related', position }),
      );
      [1, 2].forEach((step, position) =>
        relations.push({ productId: id, relatedProductId: idOf(n - step), kind: 'cross_sell', position }),
      );
    }
  }
  const search = { q: 'alpine lantern', hits: products.filter(({ name }) => /Alpine Lantern/.test(name)).length };
  return {
    tables: {
      categories: categories.map((category) => ({ ...category, description: '', visible: 1 })),
      attributes,
      attribute_values: attributeValues,
      products,
      product_variants: variants,
      product_categories: productCategories,
      product_attribute_values: productValues,
      product_relations: relations,
    },
    summary: {
      size,
      topPaths: TOP_CATEGORIES.map(slugOf),
      childPaths: leaves.map(({ path }) => path),
      values: Object.fromEntries(ATTRIBUTES.map(({ code, values }) => [code, values.map(slugOf)])),
      searchWords: NOUNS.filter((noun) => !noun.includes(' ')).map((noun) => noun.toLowerCase()),
      search,
      middleSku: skuOf(Math.floor(size / 2) + 1),
    },
  };
}

/** Each table holds the rows written above the ids it had before (the demo shop's own rows are there too). */
async function checkCounts(database, { tables }, firstIds) {
  const firstProductId = firstIds.products;
  const counted = {
    products: `SELECT COUNT(*) AS n FROM products WHERE id >= ${firstProductId}`,
    product_variants: `SELECT COUNT(*) AS n FROM product_variants WHERE productId >= ${firstProductId}`,
    categories: `SELECT COUNT(*) AS n FROM categories WHERE id >= ${firstIds.categories}`,
    attributes: `SELECT COUNT(*) AS n FROM attributes WHERE id >= ${firstIds.attributes}`,
    attribute_values: `SELECT COUNT(*) AS n FROM attribute_values WHERE id >= ${firstIds.attribute_values}`,
    product_categories: `SELECT COUNT(*) AS n FROM product_categories WHERE productId >= ${firstProductId}`,
    product_attribute_values: `SELECT COUNT(*) AS n FROM product_attribute_values WHERE productId >= ${firstProductId}`,
    product_relations: `SELECT COUNT(*) AS n FROM product_relations WHERE productId >= ${firstProductId}`,
  };
  const wrong = [];
  for (const [table, sql] of Object.entries(counted)) {
    const [{ n }] = await database.select(sql);
    if (Number(n) !== tables[table].length) wrong.push(`${table}: ${n} rows, ${tables[table].length} written`);
  }
  const [{ n: primaries }] = await database.select(
    `SELECT COUNT(*) AS n FROM product_categories WHERE productId >= ${firstProductId} AND isPrimary = 1`,
  );
  if (Number(primaries) !== tables.products.length) wrong.push(`${primaries} primary categories`);
  if (wrong.length > 0) throw new Error(`the generated catalog is not what was written: ${wrong.join('; ')}`);
}

/** `INSERT INTO table (columns) VALUES (…), (…)` of `count` rows, identifiers quoted with `quote`. */
function insertSql(table, columns, count, quote) {
  const row = `(${columns.map(() => '?').join(', ')})`;
  return `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES ${Array(count).fill(row).join(', ')}`;
}

const chunks = (rows) =>
  Array.from({ length: Math.ceil(rows.length / ROWS_PER_INSERT) }, (_, i) =>
    rows.slice(i * ROWS_PER_INSERT, (i + 1) * ROWS_PER_INSERT),
  );
const valuesOf = (rows, columns) => rows.flatMap((row) => columns.map((column) => row[column] ?? null));

function sqlite(databaseUrl) {
  const db = new Database(databaseUrl.slice('sqlite:'.length));
  db.pragma('busy_timeout = 30000');
  db.pragma('foreign_keys = ON');
  const quote = (name) => `"${name}"`;
  return {
    select: async (sql) => db.prepare(sql).all(),
    // better-sqlite3 is synchronous: the inserts run inside one BEGIN IMMEDIATE … COMMIT.
    transaction: async (write) => {
      db.exec('BEGIN IMMEDIATE');
      try {
        await write();
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    insertAll: async (table, rows) => {
      if (rows.length === 0) return;
      const columns = Object.keys(rows[0]);
      const statements = new Map();
      for (const chunk of chunks(rows)) {
        if (!statements.has(chunk.length)) {
          statements.set(chunk.length, db.prepare(insertSql(table, columns, chunk.length, quote)));
        }
        statements.get(chunk.length).run(valuesOf(chunk, columns));
      }
    },
    close: async () => db.close(),
  };
}

async function mariadb(databaseUrl) {
  const connection = await mysql.createConnection(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  const quote = (name) => `\`${name}\``;
  return {
    select: async (sql) => (await connection.query(sql))[0],
    transaction: async (write) => {
      await connection.beginTransaction();
      try {
        await write();
        await connection.commit();
      } catch (error) {
        await connection.rollback();
        throw error;
      }
    },
    insertAll: async (table, rows) => {
      if (rows.length === 0) return;
      const columns = Object.keys(rows[0]);
      for (const chunk of chunks(rows)) {
        await connection.query(insertSql(table, columns, chunk.length, quote), valuesOf(chunk, columns));
      }
    },
    close: () => connection.end(),
  };
}

module.exports = { generateCatalog };
