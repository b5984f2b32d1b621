import { Controller, Get } from '@nestjs/common';
import { CpPermission } from '../../../src/plugin-api';

/**
 * The example's CP page. The app's plugins are mounted under the CP trigger by the app module's router; a
 * plugin added with `extraModules` names the tests' trigger itself.
 */
@Controller('admin/example')
export class ExampleCpController {
  @Get('dashboard')
  @CpPermission('accessPlugin-example')
  dashboard() {
    return { success: true, page: 'example dashboard' };
  }
}
