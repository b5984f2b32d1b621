import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { TEST_CP_PASSWORD } from './test-app';

/** A browser-like client: keeps cookies, fetches a CSRF token once and sends it on writes. */
export class ShopClient {
  readonly agent: TestAgent;
  private token?: string;

  constructor(server: Parameters<typeof request.agent>[0]) {
    this.agent = request.agent(server);
  }

  async csrfToken(): Promise<string> {
    if (!this.token) {
      const res = await this.agent.get('/shop/customer/csrf-token').expect(200);
      this.token = res.body.csrfToken as string;
    }
    return this.token;
  }

  get(path: string) {
    return this.agent.get(path);
  }

  /** A JSON POST carrying the CSRF header. */
  async post(path: string, body: object = {}) {
    // The token first: the agent attaches its cookies when a request is created.
    const token = await this.csrfToken();
    return this.agent.post(path).set('X-CSRF-Token', token).send(body);
  }

  /**
   * A browser form post (urlencoded, `_csrf` field, asks for HTML); a list is sent as repeated checkboxes are.
   * `from`: the page the form was on (the Referer), where a refused post comes back to.
   */
  async submitForm(path: string, fields: Record<string, string | string[]>, from?: string) {
    const token = await this.csrfToken();
    const post = this.agent.post(path).type('form').set('Accept', 'text/html');
    if (from) post.set('Referer', from);
    return post.send({ ...fields, _csrf: token });
  }

  /** Log in to the control panel with the demo admin or another CP user. */
  async loginCp(email = 'admin@example.com', password = TEST_CP_PASSWORD) {
    const res = await this.submitForm('/admin/login', { email, password });
    if (res.status !== 303 || res.headers.location !== '/admin') throw new Error(`CP login failed: ${res.status}`);
    return res;
  }
}
