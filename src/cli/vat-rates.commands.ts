import { Command, CommandRunner, Option } from 'nest-commander';
import { ratePercent } from '../commerce/tax/tax-class';
import { VatRate } from '../commerce/tax/vat-rate.entity';
import { VatRates } from '../commerce/tax/vat-rates.service';
import { printResult } from './output';

function describeRate(rate: VatRate) {
  return {
    country: rate.country,
    taxClass: rate.taxClass,
    percent: ratePercent(rate.rate),
    validFrom: rate.validFrom,
    source: rate.source,
  };
}

@Command({
  name: 'vat-rates:list',
  arguments: '[country]',
  description: 'Print the VAT rate table (one country, or all), each class latest first',
})
export class VatRatesListCommand extends CommandRunner {
  constructor(private readonly rates: VatRates) {
    super();
  }

  async run([country]: string[]): Promise<void> {
    printResult({ rates: (await this.rates.list(country)).map(describeRate) });
  }
}

interface SetOptions {
  from?: string;
}

@Command({
  name: 'vat-rates:set',
  arguments: '<country> <taxClass> <percent>',
  description: 'Set a VAT rate from a day on (standard, reduced, reduced2 or zero); orders from that day pay it',
})
export class VatRatesSetCommand extends CommandRunner {
  constructor(private readonly rates: VatRates) {
    super();
  }

  async run([country, taxClass, percent]: string[], options: SetOptions): Promise<void> {
    const rate = await this.rates.set({
      country,
      taxClass,
      percent: Number(percent),
      validFrom: options.from,
    });
    printResult({ saved: 'vat_rate', ...describeRate(rate) });
  }

  @Option({
    flags: '--from <date>',
    description: 'first day the rate applies, YYYY-MM-DD (default: today in the shop time zone, salesTimezone)',
  })
  parseFrom(value: string): string {
    return value;
  }
}
