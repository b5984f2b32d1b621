import { Controller } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CpPermission, LicenseCpController } from '../../../plugin-api';

/** Carrier B's license panel (`carrier-b/license`). */
@ApiExcludeController()
@CpPermission('accessPlugin-carrier-b')
@Controller('carrier-b/license')
export class CarrierBLicenseCpController extends LicenseCpController {
  protected readonly plugin = { handle: 'carrier-b', name: 'Carrier B' };
}
