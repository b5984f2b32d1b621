import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  AppConfig,
  CpPermission,
  FormAnswer,
  InjectConfig,
  PluginPanelsCpController,
  RefusedGoesTo,
} from '../../../plugin-api';
import { CarrierAPanelsCpService } from './carrier-a-panels-cp.service';

/** Carrier A's dashboard, settings and connection test. */
@ApiExcludeController()
@CpPermission('accessPlugin-carrier-a')
@Controller('carrier-a')
export class CarrierAPanelsCpController extends PluginPanelsCpController {
  protected readonly plugin = { handle: 'carrier-a', name: 'Carrier A' };

  constructor(
    private readonly carrierA: CarrierAPanelsCpService,
    @InjectConfig() config: AppConfig,
  ) {
    super(carrierA, config);
  }

  /**
   * Asks the carrier for one ParcelShop with the stored settings. A refusal is not an error of the
   * request: a script gets it as `success: false`, a browser as an error flash on the settings page.
   */
  @Post('api/test-connection')
  @HttpCode(200)
  @RefusedGoesTo('carrier-a/settings')
  async testConnection(): Promise<FormAnswer> {
    const page = { to: this.url('settings') };
    const { success, message } = await this.carrierA.testConnection();
    if (success) return FormAnswer.done(message, page);
    return new FormAnswer(message, page, () => ({ success, message }), 'error');
  }
}
