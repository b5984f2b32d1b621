import { readFile } from 'node:fs/promises';
import { Command, CommandRunner, Option } from 'nest-commander';
import { AppError } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { FlowsService } from '../flow/flows.service';
import { printResult } from './output';

interface Options {
  name?: string;
  actions?: string;
  disabled?: boolean;
}

@Command({
  name: 'flows:create',
  description: 'Create a webhook-triggered flow; prints its webhook secret (shown this once)',
})
export class FlowsCreateCommand extends CommandRunner {
  constructor(
    private readonly flows: FlowsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    super();
  }

  async run(_args: string[], options: Options): Promise<void> {
    if (!options.actions) throw AppError.invalid({ actions: ['is required'] }, '--actions FILE.json is required.');
    const actions = await readFile(options.actions, 'utf8').catch((error: Error) => {
      throw AppError.invalid({ actions: ['cannot be read'] }, `Cannot read ${options.actions}: ${error.message}`);
    });
    const { flow, secret } = await this.flows.create({ name: options.name ?? '', actions }, !options.disabled);
    printResult({
      created: 'flow',
      id: flow.id,
      name: flow.name,
      enabled: flow.enabled,
      actions: flow.actions.length,
      secret,
      webhookUrl: `${this.config.baseUrl}/core/flow/webhook/${secret}`,
    });
  }

  @Option({ flags: '--name <name>', description: 'what staff call the flow' })
  parseName(value: string): string {
    return value;
  }

  @Option({ flags: '--actions <file>', description: 'a JSON file with the list of actions (docs/http-contract.md)' })
  parseActions(value: string): string {
    return value;
  }

  @Option({ flags: '--disabled', description: 'create it switched off' })
  parseDisabled(): boolean {
    return true;
  }
}
