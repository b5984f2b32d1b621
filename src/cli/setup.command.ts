import { Command, CommandRunner, Option } from 'nest-commander';
import { StoreDetailsService, StoreDetailsValues } from '../commerce/stores/store-details.service';
import { AppError } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { CpUsersService } from '../commerce/staff/cp-users.service';
import { TransactionRunner } from '../database/transaction-runner';
import { StoreService } from '../commerce/stores/store.service';
import { printResult } from './output';
import { ask, canAsk } from './prompt';

/** The store details the flags may give besides the four asked for at a terminal. */
const DETAIL_FLAGS = {
  legalName: ['--legal-name <name>', "the seller's registered name on invoices"],
  address: ['--address <lines>', 'postal address, lines separated by commas'],
  vatId: ['--vat-id <id>', 'VAT id on invoices'],
  contactEmail: ['--contact-email <email>', 'where shoppers write (order e-mails, Contact page)'],
  contactPhone: ['--contact-phone <phone>', 'shown in order e-mails and on invoices'],
  timeZone: ['--time-zone <zone>', 'IANA time zone (Europe/Bratislava)'],
  senderName: ['--sender-name <name>', 'e-mails are sent from this name'],
  senderEmail: ['--sender-email <email>', 'e-mails are sent from this address'],
  logoPath: ['--logo-path <path>', 'an image under /public (/public/images/logo.svg)'],
} as const;

type Options = { [K in keyof typeof DETAIL_FLAGS]?: string } & {
  storeName?: string;
  currency?: string;
  country?: string;
  language?: string;
  adminEmail?: string;
};

/**
 * `npm run cli -- setup`: a new install's store details and first CP admin, for shops without the demo. Values come
 * from the flags; at a terminal it asks for the name, currency, country, language and admin the flags leave out,
 * elsewhere the store keeps what it has and the admin's e-mail is CP_ADMIN_EMAIL; the other details change only
 * when a flag gives them. The password comes from CP_ADMIN_PASSWORD or the terminal, never a flag.
 * Running it again is safe: the admin's password is set anew.
 */
@Command({
  name: 'setup',
  description:
    "Set the shop's store details (name, currency, country, language, contact, sender, time zone) and make its first CP admin",
})
export class SetupCommand extends CommandRunner {
  constructor(
    private readonly runner: TransactionRunner,
    private readonly storeDetails: StoreDetailsService,
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
    const details: Partial<StoreDetailsValues> = {
      name: await value(options.storeName, 'Shop name', current.name),
      baseCurrency: await value(options.currency, 'Base currency (ISO 4217)', current.baseCurrency),
      country: await value(options.country, 'Country (ISO 3166 alpha-2)', current.country),
      language: await value(options.language, 'Language', current.language),
      // Only what the flags give: the rest keeps its value.
      ...Object.fromEntries(Object.keys(DETAIL_FLAGS).map((field) => [field, options[field as keyof Options]])),
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
    const { store, user, created } = await this.runner.run(async () => ({
      store: (await this.storeDetails.save(details, 'cli')).details,
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

  @Option({ flags: DETAIL_FLAGS.legalName[0], description: DETAIL_FLAGS.legalName[1] })
  parseLegalName(value: string): string {
    return value;
  }

  @Option({ flags: DETAIL_FLAGS.address[0], description: DETAIL_FLAGS.address[1] })
  parseAddress(value: string): string {
    return value;
  }

  @Option({ flags: DETAIL_FLAGS.vatId[0], description: DETAIL_FLAGS.vatId[1] })
  parseVatId(value: string): string {
    return value;
  }

  @Option({ flags: DETAIL_FLAGS.contactEmail[0], description: DETAIL_FLAGS.contactEmail[1] })
  parseContactEmail(value: string): string {
    return value;
  }

  @Option({ flags: DETAIL_FLAGS.contactPhone[0], description: DETAIL_FLAGS.contactPhone[1] })
  parseContactPhone(value: string): string {
    return value;
  }

  @Option({ flags: DETAIL_FLAGS.timeZone[0], description: DETAIL_FLAGS.timeZone[1] })
  parseTimeZone(value: string): string {
    return value;
  }

  @Option({ flags: DETAIL_FLAGS.senderName[0], description: DETAIL_FLAGS.senderName[1] })
  parseSenderName(value: string): string {
    return value;
  }

  @Option({ flags: DETAIL_FLAGS.senderEmail[0], description: DETAIL_FLAGS.senderEmail[1] })
  parseSenderEmail(value: string): string {
    return value;
  }

  @Option({ flags: DETAIL_FLAGS.logoPath[0], description: DETAIL_FLAGS.logoPath[1] })
  parseLogoPath(value: string): string {
    return value;
  }
}
