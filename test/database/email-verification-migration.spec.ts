import { Customer } from '../../src/commerce/customers/customer.entity';
import { PasswordReset } from '../../src/commerce/customers/password-reset.entity';
import { EmailVerification1795729603598 } from '../../src/database/migrations/1795729603598-email-verification';
import { CustomerBlocked1795798126300 } from '../../src/database/migrations/1795798126300-customer-blocked';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

/** The migration that adds `emailVerifiedAt` marks the accounts whose owners had already proved their address. */
describe(`email verification migration (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  beforeAll(async () => (shop = await startTestApp()));
  afterAll(() => shop.close());

  it('counts social-login accounts without a password and completed password resets as verified, nothing else', async () => {
    const customers = shop.dataSource.getRepository(Customer);
    const account = (email: string, fields: Partial<Customer> = {}) =>
      customers.save(
        customers.create({
          email,
          username: null,
          passwordHash: 'scrypt$x',
          firstName: 'A',
          lastName: 'B',
          authVersion: 0,
          socialIds: null,
          emailVerifiedAt: null,
          lastLoginAt: null,
          deletedAt: null,
          ...fields,
        }),
      );
    const social = await account('social@example.com', { passwordHash: null, socialIds: { google: '1' } });
    // A password and a social login: perhaps a squatter's account the owner's social login was linked to.
    const linked = await account('linked@example.com', { socialIds: { apple: '2' } });
    const linkedAndReset = await account('linked-reset@example.com', { socialIds: { facebook: '3' } });
    const reset = await account('reset@example.com');
    const pendingReset = await account('pending@example.com');
    const registered = await account('registered@example.com');
    const deleted = await account('deleted-1@invalid', { passwordHash: null, deletedAt: Date.now() });
    const resets = shop.dataSource.getRepository(PasswordReset);
    for (const [customer, usedAt] of [
      [reset, Date.now()],
      [linkedAndReset, Date.now()],
      [pendingReset, null],
    ] as const) {
      await resets.save(
        resets.create({
          customerId: customer.id,
          tokenHash: String(customer.id).padStart(64, '0'),
          expiresAt: Date.now(),
          otpHash: 'x',
          otpExpiresAt: Date.now(),
          otpAttempts: 0,
          verifiedAt: null,
          usedAt,
          otpSentAt: [],
        }),
      );
    }

    // Back to the schema before the migration, with these rows in it, and forward again. The later migration that
    // changes the customers table goes back first and forward last (SQLite rebuilds the table with each one's columns).
    const migration = new EmailVerification1795729603598();
    const later = new CustomerBlocked1795798126300();
    const runner = shop.dataSource.createQueryRunner();
    try {
      await later.down(runner);
      await migration.down(runner);
      await migration.up(runner);
      await later.up(runner);
    } finally {
      await runner.release();
    }

    const verifiedAt = async (id: number) => (await customers.findOneByOrFail({ id })).emailVerifiedAt;
    for (const customer of [social, reset, linkedAndReset]) {
      expect(await verifiedAt(customer.id)).toBeGreaterThan(Date.now() - 60_000);
    }
    for (const customer of [linked, pendingReset, registered, deleted]) {
      expect(await verifiedAt(customer.id)).toBeNull();
    }
  });
});
