import { Controller } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppConfig, CpPermission, InjectConfig, PluginPanelsCpController } from '../../../plugin-api';
import { CarrierBCpService } from './carrier-b-cp.service';

/** Carrier B's dashboard and settings (`carrier-b/dashboard`, `carrier-b/settings`). */
@ApiExcludeController()
@CpPermission('accessPlugin-carrier-b')
@Controller('carrier-b')
export class CarrierBCpController extends PluginPanelsCpController {
  protected readonly plugin = { handle: 'carrier-b', name: 'Carrier B' };

  constructor(panels: CarrierBCpService, @InjectConfig() config: AppConfig) {
    super(panels, config);
  }
}
