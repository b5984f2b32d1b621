import { Command, CommandRunner, Option } from 'nest-commander';
import { DemoRemoval } from '../commerce/stores/demo-removal.service';
import { AppError } from '../common/errors/app-error';
import { printResult } from './output';
import { ask, canAsk } from './prompt';

interface Options {
  yes?: boolean;
}

/**
 * `npm run cli -- demo:remove`: the demo catalog, every order, cart and customer, and the demo admin, gone in one
 * transaction (DemoRemoval); the store and its settings stay. At a terminal it shows what goes and asks; a script
 * confirms with `--yes`.
 */
@Command({
  name: 'demo:remove',
  description: 'Remove the demo products, all orders and customers, and the demo admin (the store settings stay)',
})
export class DemoRemoveCommand extends CommandRunner {
  constructor(private readonly demo: DemoRemoval) {
    super();
  }

  async run(_args: string[], options: Options): Promise<void> {
    if (!options.yes) {
      const { products, orders, customers, admin } = await this.demo.contents();
      const what = `${products} demo products, ${orders} orders, ${customers} customers${admin ? ` and CP user ${admin}` : ''}`;
      const answer = canAsk() ? await ask(`Remove ${what} for good? Type yes`) : '';
      if (answer !== 'yes') {
        throw AppError.invalid({ yes: ['confirm with --yes'] }, `Nothing removed: this would remove ${what}.`);
      }
    }
    printResult({ removed: await this.demo.remove('cli') });
  }

  @Option({ flags: '--yes', description: 'remove without asking' })
  parseYes(): boolean {
    return true;
  }
}
