import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppConfig, CpPermission, FormAnswer, InjectConfig, RefusedGoesTo } from '../../../plugin-api';
import { CarrierAClient } from '../carrier-a.client';
import { CarrierAConfigurationError } from '../carrier-a.errors';

/** Carrier A's connection test (`carrier-a/api/test-connection`), the button below its settings section. */
@ApiExcludeController()
@CpPermission('accessPlugin-carrier-a')
@Controller('carrier-a/api')
export class CarrierAConnectionCpController {
  constructor(
    private readonly client: CarrierAClient,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * Asks the carrier for one ParcelShop with the stored settings. A refusal (in the carrier's own words) is not an
   * error of the request: a script gets it as `success: false`, a browser as an error flash on the settings page.
   */
  @Post('test-connection')
  @HttpCode(200)
  @RefusedGoesTo('carrier-a/settings')
  async testConnection(): Promise<FormAnswer> {
    const settingsPage = { to: `/${this.config.cpTrigger}/carrier-a/settings` };
    try {
      await this.client.testConnection();
    } catch (error) {
      if (!(error instanceof CarrierAConfigurationError)) throw error;
      const { message } = error;
      return new FormAnswer(message, settingsPage, () => ({ success: false, message }), 'error');
    }
    return FormAnswer.done('Carrier A accepted the connection and the credentials.', settingsPage);
  }
}
