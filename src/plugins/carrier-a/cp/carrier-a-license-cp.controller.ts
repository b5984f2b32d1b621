import { Controller, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CpPermission } from '../../../common/decorators/cp-permission.decorator';
import { CpGuard } from '../../../common/guards/cp.guard';
import { LicenseCpController } from '../../../config/licenses/license-cp.controller';

/** Carrier A's license panel (spec "Control-panel routes": carrier-a/license). */
@ApiExcludeController()
@UseGuards(CpGuard)
@CpPermission('accessPlugin-carrier-a')
@Controller('carrier-a/license')
export class CarrierALicenseCpController extends LicenseCpController {
  protected readonly plugin = { handle: 'carrier-a', name: 'Carrier A' };
}
