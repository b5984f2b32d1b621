import { ShopClient } from './shop-client';

export const CUSTOMER_PASSWORD = 'correct horse battery';

let counter = 0;

/** Registers a new customer through `/shop/register` (which logs the client in) and returns their e-mail. */
export async function registerCustomer(
  client: ShopClient,
  details: Partial<{ email: string; password: string; firstName: string; lastName: string }> = {},
) {
  const email = details.email ?? `shopper${Date.now()}${++counter}@example.com`;
  const res = await client.post('/shop/register', {
    email,
    password: details.password ?? CUSTOMER_PASSWORD,
    firstName: details.firstName ?? 'Ada',
    lastName: details.lastName ?? 'Lovelace',
  });
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return email;
}
