import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { AuditEntry } from '../../src/commerce/audit/audit-entry.entity';
import { ProductImage } from '../../src/commerce/products/product-image.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { loadConfig } from '../../src/config/app-config';
import { productBySku, variantBySku } from '../support/catalog';
import { runCli } from '../support/cli';
import { testPng, testSidewaysJpeg } from '../support/images';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

describe('product images', () => {
  let shop: TestApp;
  let admin: ShopClient;
  let tent: Product;
  let mug: Product;
  let png: Buffer;
  let jpeg: Buffer;
  const images = (productId: number) =>
    shop.dataSource.getRepository(ProductImage).find({ where: { productId }, order: { position: 'ASC' } });
  const mediaFiles = () => {
    const folder = join(shop.config.mediaDir, 'products');
    return existsSync(folder) ? readdirSync(folder).sort() : [];
  };

  beforeAll(async () => {
    shop = await startTestApp();
    admin = new ShopClient(shop.server);
    await admin.loginCp();
    tent = await productBySku(shop.dataSource, 'DEMO-TENT-2P');
    mug = await productBySku(shop.dataSource, 'DEMO-MUG-XMAS');
    png = await testPng(1200, 800);
    jpeg = await testSidewaysJpeg(300, 600);
  });
  afterAll(() => shop.close());

  /** A multipart upload as the edit page's form sends it; `json` asks for the JSON answer instead of a redirect. */
  async function upload(client: ShopClient, productId: number, files: Array<[Buffer, string]>, json = false) {
    const token = await client.csrfToken();
    const req = client.agent
      .post(`/admin/products/${productId}/images`)
      .set('Accept', json ? 'application/json' : 'text/html')
      .field('_csrf', token);
    for (const [bytes, name] of files) req.attach('images', bytes, name);
    return req;
  }

  it('stores each upload in the storefront sizes as WebP, without EXIF, and serves them for a year', async () => {
    const page = await admin.get(`/admin/products/${tent.id}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('enctype="multipart/form-data"');
    expect(page.text).toContain('No images uploaded.');

    const res = await upload(admin, tent.id, [
      [png, 'red.png'],
      [jpeg, 'blue.jpg'],
    ]);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/admin/products/${tent.id}#images`);
    const [red, blue] = await images(tent.id);
    expect(red).toMatchObject({ position: 1, width: 1200, height: 800, alt: '', sourceUrl: null });
    // The phone photo is turned upright.
    expect(blue).toMatchObject({ position: 2, width: 600, height: 300 });
    expect(mediaFiles()).toEqual(
      [
        `${red.contentHash}-160.webp`,
        `${red.contentHash}-480.webp`,
        `${red.contentHash}-960.webp`,
        `${blue.contentHash}-160.webp`,
        `${blue.contentHash}-480.webp`,
      ].sort(),
    );

    const served = await request(shop.server).get(`/media/products/${blue.contentHash}-480.webp`).expect(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(served.body as Buffer).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 480, height: 240 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    await request(shop.server).get(`/media/products/${blue.contentHash}-960.webp`).expect(404);

    const audit = await shop.dataSource.getRepository(AuditEntry).findOneByOrFail({ action: 'images_added' });
    expect(audit).toMatchObject({
      actor: 'cp:admin@example.com',
      area: 'product',
      subject: String(tent.id),
      subjectLabel: tent.name,
      changes: { images: { from: 0, to: 2 } },
    });
    const listed = await admin.get(`/admin/products/${tent.id}`).set('Accept', 'text/html').expect(200);
    expect(listed.text).toContain('2 images added.');
    expect(listed.text).toContain(`src="/media/products/${red.contentHash}-160.webp"`);
  });

  it('shows the stored pictures on the product page and the cards, with srcset, size and alt text', async () => {
    const [red, blue] = await images(tent.id);
    const described = await admin.submitForm(`/admin/products/${tent.id}/images/${red.id}`, {
      alt: 'The tent, pitched',
    });
    expect(described.status).toBe(303);
    expect((await images(tent.id))[0].alt).toBe('The tent, pitched');
    expect(await shop.dataSource.getRepository(AuditEntry).findOneByOrFail({ action: 'image_updated' })).toMatchObject({
      changes: { alt: { from: '', to: 'The tent, pitched' } },
    });

    const page = await request(shop.server).get(`/shop/p/${tent.slug}`).set('Accept', 'text/html').expect(200);
    const redSet = [160, 480, 960].map((w) => `/media/products/${red.contentHash}-${w}.webp ${w}w`).join(', ');
    expect(page.text).toContain(
      `<img src="/media/products/${red.contentHash}-960.webp" srcset="${redSet}" sizes="(min-width: 48rem) 50vw, 100vw" alt="The tent, pitched" width="1200" height="800" data-gallery-main>`,
    );
    expect(page.text).toMatch(
      new RegExp(
        `<img src="/media/products/${blue.contentHash}-480.webp" srcset="[^"]+" sizes="4rem" alt="[^"]+" width="600" height="300" loading="lazy">`,
      ),
    );
    const json = await request(shop.server).get(`/shop/p/${tent.slug}`).set('Accept', 'application/json').expect(200);
    expect(json.body.product.images).toEqual([
      expect.stringMatching(new RegExp(`/media/products/${red.contentHash}-960\\.webp$`)),
      expect.stringMatching(new RegExp(`/media/products/${blue.contentHash}-480\\.webp$`)),
    ]);

    const listing = await request(shop.server)
      .get('/shop/catalog/products?perPage=100')
      .set('Accept', 'text/html')
      .expect(200);
    expect(listing.text).toContain(
      `<img src="/media/products/${red.contentHash}-480.webp" srcset="${redSet}" sizes="12rem" alt="The tent, pitched" width="1200" height="800" loading="lazy">`,
    );
    // Products without stored pictures keep their image paths.
    expect(listing.text).toContain('src="/public/images/products/folding-camp-chair.svg"');
    const cards = await request(shop.server)
      .get('/shop/catalog/products?perPage=100')
      .set('Accept', 'application/json')
      .expect(200);
    const card = cards.body.products.find((product: { sku: string }) => product.sku === tent.sku);
    expect(card.image).toMatch(new RegExp(`/media/products/${red.contentHash}-480\\.webp$`));
    expect(card.picture).toMatchObject({ width: 1200, height: 800, alt: 'The tent, pitched' });
  });

  it('never puts a data: URL an older import stored into a page', async () => {
    const candle = await productBySku(shop.dataSource, 'DEMO-CANDLE-PINE');
    await shop.dataSource.getRepository(Product).update(candle.id, { images: ['data:image/png;base64,iVBORw0KGgo='] });
    const page = await request(shop.server).get(`/shop/p/${candle.slug}`).set('Accept', 'text/html').expect(200);
    expect(page.text).not.toContain('data:image');
    const json = await request(shop.server).get(`/shop/p/${candle.slug}`).set('Accept', 'application/json').expect(200);
    expect(json.body.product).toMatchObject({ image: null, images: [] });
    const listing = await request(shop.server).get('/shop/catalog/products?perPage=100').set('Accept', 'text/html');
    expect(listing.text).not.toContain('data:image');
  });

  it('reorders with up and down buttons', async () => {
    const [red, blue] = await images(tent.id);
    const moved = await admin.submitForm(`/admin/products/${tent.id}/images/${blue.id}/move`, { direction: 'up' });
    expect(moved.status).toBe(303);
    expect((await images(tent.id)).map((image) => image.id)).toEqual([blue.id, red.id]);
    // Already first: nothing moves.
    await admin.submitForm(`/admin/products/${tent.id}/images/${blue.id}/move`, { direction: 'up' });
    expect((await images(tent.id)).map((image) => image.id)).toEqual([blue.id, red.id]);
    const page = await request(shop.server).get(`/shop/p/${tent.slug}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain(`<img src="/media/products/${blue.contentHash}-480.webp" srcset=`);
    expect(await shop.dataSource.getRepository(AuditEntry).findOneByOrFail({ action: 'image_moved' })).toMatchObject({
      changes: { position: { from: 2, to: 1 } },
    });
  });

  it('deletes only when confirmed, and removes files no other picture uses', async () => {
    // The same picture on a second product shares the files.
    expect((await upload(admin, mug.id, [[png, 'same-red.png']])).status).toBe(303);
    const [blue, red] = await images(tent.id);
    const form = await admin.get(`/admin/products/${tent.id}`).set('Accept', 'text/html').expect(200);
    expect(form.text).toContain(`<span class="visually-hidden"> to delete image ${red.position}</span>`);
    const unconfirmed = await admin.post(`/admin/products/${tent.id}/images/${red.id}/delete`, {});
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.error.message).toBe('Deleting the image was not done: tick "I am sure" to confirm it.');
    expect(await images(tent.id)).toHaveLength(2);

    await admin.submitForm(`/admin/products/${tent.id}/images/${red.id}/delete`, { confirm: 'yes' });
    expect((await images(tent.id)).map((image) => [image.id, image.position])).toEqual([[blue.id, 1]]);
    expect(mediaFiles()).toContain(`${red.contentHash}-960.webp`);
    const [mugRed] = await images(mug.id);
    await admin.submitForm(`/admin/products/${mug.id}/images/${mugRed.id}/delete`, { confirm: 'yes' });
    expect(mediaFiles().filter((file) => file.startsWith(red.contentHash))).toEqual([]);
    expect(mediaFiles().filter((file) => file.startsWith(blue.contentHash))).toHaveLength(2);
    expect(await shop.dataSource.getRepository(AuditEntry).findOneByOrFail({ action: 'image_deleted' })).toMatchObject({
      subject: String(tent.id),
      changes: { 'image 2': { from: 'The tent, pitched', to: null } },
    });
  });

  it('refuses other file types, oversized files and too many pixels with a 400, storing nothing', async () => {
    const before = { rows: await images(mug.id), files: mediaFiles() };
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    const wrongType = await upload(
      admin,
      mug.id,
      [
        [await testPng(50, 50), 'fine.png'],
        [svg, 'logo.png'],
      ],
      true,
    );
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatchObject({
      code: 'image_type_unsupported',
      message: 'logo.png is not a JPEG, PNG, WebP or GIF image.',
    });
    const oversized = await upload(admin, mug.id, [[Buffer.alloc(10 * 1024 * 1024 + 1), 'huge.jpg']], true);
    expect(oversized.status).toBe(400);
    expect(oversized.body.error.message).toBe('An image is larger than 10 MB.');
    // A small file that would decode to 50 megapixels.
    const bomb = await sharp({ create: { width: 10000, height: 5000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const pixels = await upload(admin, mug.id, [[bomb, 'bomb.png']], true);
    expect(pixels.status).toBe(400);
    expect(pixels.body.error.message).toBe('bomb.png has more than 40 megapixels.');
    const none = await admin.agent
      .post(`/admin/products/${mug.id}/images`)
      .set('Accept', 'application/json')
      .field('_csrf', await admin.csrfToken());
    expect(none.status).toBe(400);

    // A browser gets the message as a flash on the edit page.
    const html = await upload(admin, mug.id, [[svg, 'logo.svg']]);
    expect(html.status).toBe(303);
    const page = await admin.get(`/admin/products/${mug.id}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('logo.svg is not a JPEG, PNG, WebP or GIF image.');
    expect(await images(mug.id)).toEqual(before.rows);
    expect(mediaFiles()).toEqual(before.files);
  });

  it("takes GIF and WebP too, and ties a picture to one of the product's variants", async () => {
    const tee = await productBySku(shop.dataSource, 'DEMO-TEE-LOGO');
    const gif = await sharp({ create: { width: 500, height: 500, channels: 3, background: '#e67e22' } })
      .gif()
      .toBuffer();
    const webp = await sharp({ create: { width: 100, height: 50, channels: 3, background: '#16a085' } })
      .webp()
      .toBuffer();
    expect(
      (
        await upload(admin, tee.id, [
          [gif, 'orange.gif'],
          [webp, 'teal.webp'],
        ])
      ).status,
    ).toBe(303);
    const [orange, teal] = await images(tee.id);
    expect([orange.width, teal.width]).toEqual([500, 100]);
    expect(mediaFiles()).toEqual(
      expect.arrayContaining([`${orange.contentHash}-480.webp`, `${teal.contentHash}-100.webp`]),
    );

    const red = await variantBySku(shop.dataSource, 'DEMO-TEE-LOGO-M-RED');
    const page = await admin.get(`/admin/products/${tee.id}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain(`<option value="${red.id}">DEMO-TEE-LOGO-M-RED (M / red)</option>`);
    await admin.submitForm(`/admin/products/${tee.id}/images/${orange.id}`, {
      alt: 'Orange',
      variantId: String(red.id),
    });
    expect((await images(tee.id))[0]).toMatchObject({ alt: 'Orange', variantId: red.id });
    const hoodie = await variantBySku(shop.dataSource, 'DEMO-HOODIE-FLEECE-M');
    const foreign = await admin.post(`/admin/products/${tee.id}/images/${orange.id}`, {
      alt: 'Orange',
      variantId: String(hoodie.id),
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.fields).toEqual({ variantId: ['is not a variant of this product'] });
  });

  it('answers 404 for an upload to an unknown product, writing no file', async () => {
    const before = mediaFiles();
    const res = await upload(admin, 999_999, [[await testPng(64, 48, '#16a085'), 'orphan.png']], true);
    expect(res.status).toBe(404);
    expect(mediaFiles()).toEqual(before);
  });

  it('keeps the files under MEDIA_DIR, by default in the data folder', () => {
    expect(shop.config.mediaDir).toBe(join(shop.config.dataDir, 'media'));
    expect(loadConfig({ ...shop.place.env, MEDIA_DIR: '/srv/shop-media' }).mediaDir).toBe('/srv/shop-media');
  });

  it('refuses a multipart upload without the CSRF token', async () => {
    const res = await admin.agent
      .post(`/admin/products/${mug.id}/images`)
      .set('Accept', 'application/json')
      .attach('images', png, 'red.png');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('csrf_invalid');
    expect(await images(mug.id)).toEqual([]);
  });

  it('is refused (403) to staff without accessProducts', async () => {
    await shop.app.get(CpUsersService).create({
      email: 'clerk@example.com',
      password: 'clerk-password-1',
      permissions: ['accessOrders'],
    });
    const clerk = new ShopClient(shop.server);
    await clerk.loginCp('clerk@example.com', 'clerk-password-1');
    expect((await upload(clerk, mug.id, [[png, 'red.png']], true)).status).toBe(403);
    const [blue] = await images(tent.id);
    const moved = await clerk.post(`/admin/products/${tent.id}/images/${blue.id}/delete`, { confirm: 'yes' });
    expect(moved.status).toBe(403);
    expect(await images(mug.id)).toEqual([]);
    expect(await images(tent.id)).toHaveLength(1);
  });

  describe('catalog:import', () => {
    let server: Server;
    let origin: string;
    let dir: string;
    const hits = new Map<string, number>();

    beforeAll(async () => {
      const served = await testPng(640, 480, '#27ae60');
      server = createServer((req, res) => {
        hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
        if (req.url === '/green.png') res.writeHead(200, { 'content-type': 'image/png' }).end(served);
        else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
        else res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      dir = mkdtempSync(join(tmpdir(), 'image-import-'));
      mkdirSync(join(dir, 'pictures'));
      writeFileSync(join(dir, 'pictures', 'side.jpg'), await testSidewaysJpeg(200, 400, '#8e44ad'));
    });
    afterAll(async () => {
      rmSync(dir, { recursive: true, force: true });
      await new Promise((resolve) => server.close(resolve));
    });

    const importFile = (rows: object[]) => {
      const file = join(dir, 'catalog.json');
      writeFileSync(file, JSON.stringify(rows));
      return runCli(shop.place, 'catalog:import', file);
    };

    it('fetches URLs and reads files once, reports the pictures it cannot get, and keeps site paths', async () => {
      const dot = (await testPng(8, 8, '#f1c40f')).toString('base64');
      const row = {
        sku: 'IMG-LAMP',
        name: 'Picture Lamp',
        price: 19.5,
        stock: 4,
        images: [
          `${origin}/green.png`,
          'pictures/side.jpg',
          `${origin}/missing.png`,
          `${origin}/page.html`,
          `data:image/png;base64,${dot}`,
          '/public/images/products/firefly-led-lantern.svg',
        ],
      };
      const first = await importFile([row]);
      expect(first.json).toMatchObject({ ok: true, created: 1, rejected: 0, rejectedImages: 2 });
      expect(first.json.imageErrors).toEqual([
        {
          line: 1,
          sku: 'IMG-LAMP',
          image: `${origin}/missing.png`,
          message: 'could not be fetched: the server answered 404',
        },
        {
          line: 1,
          sku: 'IMG-LAMP',
          image: `${origin}/page.html`,
          message: `${origin}/page.html is not a JPEG, PNG, WebP or GIF image.`,
        },
      ]);
      const lamp = await productBySku(shop.dataSource, 'IMG-LAMP');
      expect(lamp.images).toEqual(['/public/images/products/firefly-led-lantern.svg']);
      const stored = await images(lamp.id);
      expect(stored.map(({ position, width, height, sourceUrl }) => ({ position, width, height, sourceUrl }))).toEqual([
        { position: 1, width: 640, height: 480, sourceUrl: `${origin}/green.png` },
        { position: 2, width: 400, height: 200, sourceUrl: null },
        { position: 3, width: 8, height: 8, sourceUrl: null },
      ]);
      expect(mediaFiles()).toContain(`${stored[2].contentHash}-8.webp`);
      expect(hits.get('/green.png')).toBe(1);

      const again = await importFile([{ ...row, name: 'Picture Lamp II' }]);
      expect(again.json).toMatchObject({ ok: true, created: 0, updated: 1, rejectedImages: 2 });
      expect(hits.get('/green.png')).toBe(1);
      expect(await images(lamp.id)).toEqual(stored.map((image) => expect.objectContaining({ id: image.id })));

      const page = await request(shop.server).get(`/shop/p/${lamp.slug}`).set('Accept', 'text/html').expect(200);
      expect(page.text).toContain(`srcset="/media/products/${stored[0].contentHash}-160.webp 160w,`);
      expect(page.text).not.toContain('data:image');
    });

    it('refuses addresses inside the network and unreadable files without failing the row', async () => {
      const result = await importFile([
        {
          sku: 'IMG-BOX',
          name: 'Picture Box',
          price: 5,
          stock: 1,
          images: ['http://10.0.0.1/box.png', 'pictures/none.png'],
        },
      ]);
      expect(result.json).toMatchObject({ ok: true, created: 1, rejectedImages: 2 });
      const messages = (result.json.imageErrors as Array<{ message: string }>).map((error) => error.message);
      expect(messages).toEqual([
        'could not be fetched: 10.0.0.1 is a private or loopback address, which the shop may not call',
        "must be a file inside the import's folder",
      ]);
      const box = await productBySku(shop.dataSource, 'IMG-BOX');
      expect(await images(box.id)).toEqual([]);
    });

    it("reads only regular files inside the import's folder, at most 10 MB, saying the same of all others", async () => {
      const outside = mkdtempSync(join(tmpdir(), 'image-outside-'));
      try {
        const secret = join(outside, 'secret.png');
        writeFileSync(secret, await testPng(8, 8, '#c0392b'));
        symlinkSync(secret, join(dir, 'pictures', 'link.png'));
        execFileSync('mkfifo', [join(dir, 'pictures', 'pipe.png')]);
        writeFileSync(join(dir, 'pictures', 'huge.png'), '');
        truncateSync(join(dir, 'pictures', 'huge.png'), 10 * 1024 * 1024 + 1);
        const escapes = [
          `/${secret}`,
          `file://${secret}`,
          `file:${secret}`,
          `../${basename(outside)}/secret.png`,
          `file:../${basename(outside)}/secret.png`,
          'pictures/link.png',
          `file://${outside}/none.png`,
          'pictures/none.png',
          'pictures/pipe.png',
          'pictures',
          'file:///dev/zero',
          'file://host/pictures/side.jpg',
        ];
        const result = await importFile([
          {
            sku: 'IMG-ESCAPE',
            name: 'Picture Escape',
            price: 5,
            stock: 1,
            images: [...escapes, 'pictures/huge.png', 'file:pictures/side.jpg'],
          },
        ]);
        expect(result.json).toMatchObject({ ok: true, created: 1, rejectedImages: escapes.length + 1 });
        expect((result.json.imageErrors as Array<{ message: string }>).map((error) => error.message)).toEqual([
          ...escapes.map(() => "must be a file inside the import's folder"),
          'pictures/huge.png is larger than 10 MB.',
        ]);
        const escape = await productBySku(shop.dataSource, 'IMG-ESCAPE');
        expect((await images(escape.id)).map(({ width, height }) => [width, height])).toEqual([[400, 200]]);
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    });
  });
});
