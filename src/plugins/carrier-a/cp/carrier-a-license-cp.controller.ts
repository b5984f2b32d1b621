import { Controller } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CpPermission, LicenseCpController } from '../../../plugin-api';

/** Carrier A's license panel (`carrier-a/license`). */
@ApiExcludeController()
@CpPermission('accessPlugin-carrier-a')
@Controller('carrier-a/license')
export class CarrierALicenseCpController extends LicenseCpController {
  protected readonly plugin = { handle: 'carrier-a', name: 'Carrier A' };
}
