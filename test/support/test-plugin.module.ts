import { Controller, Get, Module, OnModuleInit, UseGuards } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { PLUGINS_AFTER_LOAD } from '../../src/commerce/events';
import { PaymentMethodRegistry } from '../../src/commerce/payments/payment-method.registry';
import { ShippingMethodRegistry } from '../../src/commerce/shipping/shipping-method.registry';
import { CpPermission } from '../../src/common/decorators/cp-permission.decorator';
import { RequiresFeature } from '../../src/common/decorators/requires-feature.decorator';
import { CpGuard } from '../../src/common/guards/cp.guard';

/** A route behind a real flag, standing in for the coupon endpoint the cart issue adds. */
@Controller('test/gated')
class GatedController {
  @Get()
  @RequiresFeature('salesCouponsEnabled')
  open() {
    return { success: true, gated: 'open' };
  }
}

/** A CP page that needs a plugin permission, like `bankpay/dashboard` will. */
@Controller('admin/test-plugin')
@UseGuards(CpGuard)
class TestPluginCpController {
  @Get('dashboard')
  @CpPermission('accessPlugin-test-plugin')
  dashboard() {
    return { success: true, page: 'test-plugin dashboard' };
  }
}

export const loadEvents: string[] = [];

/** Registers like a real plugin: subscribes in onModuleInit, registers when plugins-after-load fires. */
@Module({ controllers: [GatedController, TestPluginCpController] })
export class TestPluginModule implements OnModuleInit {
  constructor(
    private readonly events: EventEmitter2,
    private readonly payments: PaymentMethodRegistry,
    private readonly shipping: ShippingMethodRegistry,
  ) {}

  onModuleInit(): void {
    this.events.on(PLUGINS_AFTER_LOAD, () => {
      loadEvents.push(PLUGINS_AFTER_LOAD);
      this.payments.register({
        handle: 'test-pay',
        getDetails: () => [
          {
            name: 'Test pay',
            handle: 'test-pay',
            code: 'test-pay',
            type: 'online',
            description: 'pays in tests',
            instructions: '',
            price: 0,
            enabled: true,
            url: null,
            logo: null,
          },
          {
            name: 'Disabled test pay',
            handle: 'test-pay-off',
            code: 'test-pay-off',
            type: 'online',
            description: '',
            instructions: '',
            price: 0,
            enabled: false,
            url: null,
            logo: null,
          },
        ],
      });
      this.shipping.register({ type: 'test-carrier', name: 'Test carrier' });
    });
  }
}
