import { Command, CommandRunner, Option } from 'nest-commander';
import { DefaultStoreService } from '../commerce/stores/default-store.service';
import { AppError } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { StoreDetails } from '../config/store-details';
import { CpUsersService } from '../commerce/staff/cp-users.service';
import { TransactionRunner } from '../database/transaction-runner';
import { StoreService } from '../commerce/stores/store.service';
import { printResult } from './output';
import { ask, canAsk } from './prompt';

interface Options {
  storeName?: string;
  currency?: string;
  country?: string;
  language?: string;
  adminEmail?: string;
}

/**
 * `npm run cli -- setup`: a new install's store and first CP admin, for shops without the demo. Values come from
 * the flags; at a terminal it asks for what the flags leave out, elsewhere the store keeps what it has and the
 * admin's e-mail is CP_ADMIN_EMAIL. The password comes from CP_ADMIN_PASSWORD or the terminal, never a flag.
 * Running it again is safe: the admin's password is set anew.
 */
@Command({
  name: 'setup',
  description: "Set the shop's store (name, currency, country, language) and make its first CP admin",
})
export class SetupCommand extends CommandRunner {
  constructor(
    private readonly runner: TransactionRunner,
    private readonly defaultStore: DefaultStoreService,
    private readonly stores: StoreService,
    private readonly cpUsers: CpUsersService,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    super();
  }

  async run(_args: string[], options: Options): Promise<void> {
    const current = await this.stores.default();
    const interactive = canAsk();
    const value = async (given: string | undefined, question: string, fallback: string) =>
      given ?? (interactive ? ask(question, { fallback }) : fallback);
    const details: StoreDetails = {
      name: await value(options.storeName, 'Shop name', current.name),
      baseCurrency: await value(options.currency, 'Base currency (ISO 4217)', current.baseCurrency),
      country: await value(options.country, 'Country (ISO 3166 alpha-2)', current.country),
      language: await value(options.language, 'Language', current.language),
    };
    const email = await value(options.adminEmail, 'Admin e-mail', this.config.cpAdminEmail);
    // Never a flag: a password on the command line stays in shell history and process lists.
    const password =
      this.config.cpAdminPassword ??
      (interactive ? await ask('Admin password (10 characters or more)', { hidden: true }) : '');
    if (!password) {
      throw AppError.invalid(
        { adminPassword: ['is required'] },
        'An admin password is required: set CP_ADMIN_PASSWORD, or run setup at a terminal to be asked',
      );
    }
    // One unit of work: a refused password leaves the store as it was, a refused store the admin.
    const { store, user, created } = await this.runner.run(async ({ manager }) => ({
      store: await this.defaultStore.configure(manager, details),
      ...(await this.cpUsers.makeAdmin(email, password)),
    }));
    printResult({
      store: { name: store.name, baseCurrency: store.baseCurrency, country: store.country, language: store.language },
      admin: { email: user.email, created },
    });
  }

  @Option({ flags: '--store-name <name>' })
  parseStoreName(value: string): string {
    return value;
  }

  @Option({ flags: '--currency <code>', description: 'base currency, ISO 4217 (EUR)' })
  parseCurrency(value: string): string {
    return value;
  }

  @Option({ flags: '--country <code>', description: 'ISO 3166 alpha-2 (SK)' })
  parseCountry(value: string): string {
    return value;
  }

  @Option({ flags: '--language <code>', description: 'two letters (en)' })
  parseLanguage(value: string): string {
    return value;
  }

  @Option({ flags: '--admin-email <email>', description: 'the first CP admin (CP_ADMIN_EMAIL)' })
  parseAdminEmail(value: string): string {
    return value;
  }
}
