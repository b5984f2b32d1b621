import { Command, CommandRunner } from 'nest-commander';
import { SettingsService } from '../config/settings.service';
import { printResult } from './output';

@Command({ name: 'settings:get', arguments: '<key>', description: 'Print a setting (its default when never saved)' })
export class SettingsGetCommand extends CommandRunner {
  constructor(private readonly settings: SettingsService) {
    super();
  }

  async run([key]: string[]): Promise<void> {
    printResult({ key, value: this.settings.value(key) });
  }
}

@Command({
  name: 'settings:set',
  arguments: '<key> <value>',
  description: 'Save a setting; running instances pick it up within seconds',
})
export class SettingsSetCommand extends CommandRunner {
  constructor(private readonly settings: SettingsService) {
    super();
  }

  async run([key, value]: string[]): Promise<void> {
    await this.settings.save({ [key]: value }, 'cli');
    printResult({ key, value: this.settings.definition(key)?.secret ? '[secret]' : this.settings.value(key) });
  }
}
