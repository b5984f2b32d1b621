import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from './app-config';
import { InjectConfig } from './config.module';
import { SettingsService } from './settings.service';

/** A switch that loosens security and is on, with what it lets through. */
export interface LoosenedSwitch {
  name: string;
  effect: string;
}

/**
 * Everything that loosens security (sandboxes, demo data, gateway test modes, loopback calls) is off unless
 * switched on (docs/architecture.md). Start-up names every such switch that is on, in one warning line, and the CP
 * shows them on every page, so none stays on unnoticed in a shop taking real money.
 */
@Injectable()
export class LoosenedSwitches implements OnApplicationBootstrap {
  private readonly logger = new Logger('Security');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly settings: SettingsService,
  ) {}

  /** The environment's switches, then the runtime settings', as they are now. */
  current(): LoosenedSwitch[] {
    const on: LoosenedSwitch[] = [];
    if (this.config.sandboxes) {
      on.push({
        name: 'SANDBOXES',
        effect:
          'stand-ins for the bank, carriers, VAT service, social logins and license server answer under /_sandbox, ' +
          'their test license key is trusted, and outbound calls may reach loopback addresses',
      });
    }
    if (this.config.demoSeed) {
      on.push({ name: 'DEMO_SEED', effect: 'an empty database gets the demo shop and its publicly known CP password' });
    }
    for (const { key, effect } of this.settings.loosened()) on.push({ name: key, effect });
    return on;
  }

  onApplicationBootstrap(): void {
    const on = this.current();
    if (on.length === 0) return;
    this.logger.warn(
      `Loosened security switches are on: ${on.map(({ name, effect }) => `${name} (${effect})`).join('; ')}. ` +
        'Never take real money like this: see "Going live" in README.md.',
    );
  }
}
