import { runInNewContext } from 'node:vm';
import request from 'supertest';
import { eventually, startTestApp, TestApp } from '../support/test-app';

/** The smallest DOM the widget library uses: elements with listeners, children and a body to attach to. */
class FakeElement {
  className = '';
  textContent = '';
  type = '';
  style: Record<string, string> = {};
  dataset: Record<string, string> = {};
  attributes: Record<string, string> = {};
  children: FakeElement[] = [];
  parent: FakeElement | null = null;
  listeners: Record<string, Array<(event: object) => void>> = {};

  constructor(readonly tagName: string) {}
  setAttribute(name: string, value: string) {
    this.attributes[name] = value;
  }
  append(...nodes: FakeElement[]) {
    for (const node of nodes) {
      node.parent = this;
      this.children.push(node);
    }
  }
  remove() {
    this.parent?.children.splice(this.parent.children.indexOf(this), 1);
    this.parent = null;
  }
  addEventListener(name: string, listener: (event: object) => void) {
    (this.listeners[name] ??= []).push(listener);
  }
  removeEventListener(name: string, listener: (event: object) => void) {
    this.listeners[name] = (this.listeners[name] ?? []).filter((candidate) => candidate !== listener);
  }
  dispatch(name: string, event: object = {}) {
    for (const listener of this.listeners[name] ?? []) listener({ target: this, ...event });
  }
  focus() {}
  /** Every descendant with this class. */
  find(className: string): FakeElement[] {
    return this.children.flatMap((child) => [
      ...(child.className === className ? [child] : []),
      ...child.find(className),
    ]);
  }
}

/** What the library puts on `window.Packeta.Widget`. */
interface Widget {
  pick(apiKey: string, callback: (point: unknown) => void, options: Record<string, string>): void;
}

describe('carrier B widget sandbox', () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
  });
  afterAll(() => shop.close());

  const libraryPath = '/_sandbox/carrier-b/v6/www/js/library.js';

  it('serves the v6 library as JavaScript from the shop itself (CSP script-src self)', async () => {
    const res = await request(shop.server).get(libraryPath).expect(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.text).toContain('window.Packeta.Widget');
  });

  describe('points', () => {
    it('answers the points of the asked countries in the widget point shape', async () => {
      const res = await request(shop.server)
        .get('/_sandbox/carrier-b/v6/api/points')
        .query({ apiKey: 'k', country: 'sk, CZ', valueFormat: 'id,carrierId,carrierPickupPointId,name,city,street' })
        .expect(200);
      const points = res.body.points as Array<Record<string, unknown>>;
      expect(new Set(points.map((point) => point.country))).toEqual(new Set(['sk', 'cz']));
      for (const point of points) {
        expect(Object.keys(point).sort()).toEqual(
          [
            'id',
            'name',
            'street',
            'city',
            'zip',
            'country',
            'pickupPointType',
            'carrierId',
            'carrierPickupPointId',
            'formatedValue',
            'openingHours',
          ].sort(),
        );
      }
      expect(points[0]).toEqual({
        id: '1001',
        name: 'Sandbox point Hlavná',
        street: 'Hlavná 1',
        city: 'Bratislava',
        zip: '811 01',
        country: 'sk',
        pickupPointType: 'internal',
        carrierId: null,
        carrierPickupPointId: null,
        formatedValue: '1001, Sandbox point Hlavná, Bratislava, Hlavná 1',
        openingHours: 'Mon–Fri 08:00–20:00, Sat 09:00–14:00',
      });
      expect(points).toContainEqual(
        expect.objectContaining({
          pickupPointType: 'external',
          carrierId: 'sk-box',
          carrierPickupPointId: 'B-77',
          formatedValue: '9001, sk-box, B-77, Partner box Nivy, Bratislava, Mlynské nivy 5',
        }),
      );
    });

    it('formats the value by valueFormat, and lists every country when none is asked', async () => {
      const res = await request(shop.server)
        .get('/_sandbox/carrier-b/v6/api/points?apiKey=k&valueFormat=name,city')
        .expect(200);
      expect(new Set(res.body.points.map((point: { country: string }) => point.country))).toEqual(
        new Set(['sk', 'cz', 'hu']),
      );
      expect(res.body.points[0].formatedValue).toBe('Sandbox point Hlavná, Bratislava');
    });

    it.each([
      ['no', ''],
      ['an empty', '?apiKey=%20'],
    ])('refuses %s API key with 401', async (_, query) => {
      const res = await request(shop.server).get(`/_sandbox/carrier-b/v6/api/points${query}`).expect(401);
      expect(res.body).toEqual({ error: 'An API key is required.' });
    });
  });

  describe('Packeta.Widget.pick in a page', () => {
    /** Loads the served library into a fresh fake page; returns its window and body. */
    async function loadPage() {
      const source = (await request(shop.server).get(libraryPath).expect(200)).text;
      const body = new FakeElement('body');
      const documentListeners = new FakeElement('#document');
      const window: { Packeta?: { Widget: Widget } } = {};
      const document = {
        currentScript: { src: `${shop.config.baseUrl}${libraryPath}?v=1` },
        body,
        createElement: (tag: string) => new FakeElement(tag),
        addEventListener: documentListeners.addEventListener.bind(documentListeners),
        removeEventListener: documentListeners.removeEventListener.bind(documentListeners),
      };
      runInNewContext(source, { window, document, fetch, URLSearchParams });
      return { widget: window.Packeta!.Widget, body, documentListeners };
    }

    it('lists the points of the options country and calls back with the chosen one', async () => {
      const { widget, body } = await loadPage();
      const chosen: unknown[] = [];
      widget.pick('sandbox-widget-key', (point: unknown) => chosen.push(point), { country: 'cz', valueFormat: 'name' });
      expect(body.find('carrier-b-widget')).toHaveLength(1);
      const buttons = await eventually(() => {
        const found = body.find('carrier-b-widget__choose');
        return found.length > 0 && found;
      });
      expect(buttons.map((button) => button.dataset.pointId)).toEqual(['2001', '9002']);
      buttons[1].dispatch('click');
      expect(chosen).toEqual([
        expect.objectContaining({ id: '9002', country: 'cz', carrierId: 'cz-box', formatedValue: 'Partner box Brno' }),
      ]);
      expect(body.children).toEqual([]);
    });

    it('calls back with null when closed by the button or by Escape, once', async () => {
      const { widget, body, documentListeners } = await loadPage();
      const results: unknown[] = [];
      widget.pick('k', (point: unknown) => results.push(point), {});
      body.find('carrier-b-widget__close')[0].dispatch('click');
      widget.pick('k', (point: unknown) => results.push(point), {});
      documentListeners.dispatch('keydown', { key: 'Escape' });
      documentListeners.dispatch('keydown', { key: 'Escape' });
      expect(results).toEqual([null, null]);
      expect(body.children).toEqual([]);
    });

    it('shows the error when the key is refused', async () => {
      const { widget, body } = await loadPage();
      widget.pick('', () => undefined, { country: 'sk' });
      await eventually(() => body.find('carrier-b-widget__status')[0].textContent === 'An API key is required.');
    });
  });
});
