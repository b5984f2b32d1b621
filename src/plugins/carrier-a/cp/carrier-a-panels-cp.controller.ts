import { Controller, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { answerCpPost, AppConfig, CpPermission, InjectConfig, PluginPanelsCpController } from '../../../plugin-api';
import { CarrierAPanelsCpService } from './carrier-a-panels-cp.service';

/** Carrier A's dashboard, settings and connection test (spec "Control-panel routes"). */
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

  /** Spec "Limits": asks the carrier for one ParcelShop with the stored settings. */
  @Post('api/test-connection')
  testConnection(@Req() req: Request, @Res() res: Response): Promise<void> {
    return answerCpPost(req, res, { page: this.url('settings'), action: () => this.carrierA.testConnection() });
  }
}
