import { Controller, Get, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { PLUGINS_AFTER_LOAD } from '../../src/commerce/events';
import { RequiresFeature } from '../../src/common/decorators/requires-feature.decorator';
import {
  CpPermission,
  PaymentGateway,
  PaymentMethodDescriptor,
  PaymentOutcome,
  PaymentRequest,
  PaymentReturn,
  PaymentStart,
  PluginDeclaration,
  ShippingContext,
  ShippingMethod,
  ShippingProvider,
  StorefrontPlugin,
  tableRate,
} from '../../src/plugin-api';

/** A route behind a real flag, standing in for a feature-flagged endpoint such as the coupons'. */
@Controller('test/gated')
class GatedController {
  @Get()
  @RequiresFeature('salesCouponsEnabled')
  open() {
    return { success: true, gated: 'open' };
  }
}

/**
 * A CP page of the plugin's own that needs its permission, at a path the core's plugin pages (`:handle/dashboard`)
 * would match too: the plugin's own route comes first.
 */
@Controller('admin/test-plugin')
class TestPluginCpController {
  @Get('dashboard')
  @CpPermission('accessPlugin-test-plugin')
  dashboard() {
    return { success: true, page: 'test-plugin dashboard' };
  }
}

export const loadEvents: string[] = [];

/** Switches of the test gateway: make its start fail like a gateway that is down. */
export const testGateway = { down: false, starts: 0 };

const testPayMethod: PaymentMethodDescriptor = {
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
};

/**
 * A redirecting gateway as a plugin would register it: the shopper is sent to a "bank page" and comes
 * back to the return URL with `result=ok|review|cancel|fail` (anything else: status unknown).
 */
const testPayGateway: PaymentGateway = {
  handle: 'test-pay',
  getDetails: () => [
    testPayMethod,
    { ...testPayMethod, name: 'Disabled test pay', handle: 'test-pay-off', code: 'test-pay-off', enabled: false },
  ],
  startPayment: async (_code: string, request: PaymentRequest): Promise<PaymentStart> => {
    testGateway.starts++;
    if (testGateway.down) throw new Error('gateway unreachable');
    const reference = `tp-${request.transaction.reference}`;
    return {
      kind: 'redirect',
      url: `https://bank.test/pay?payment=${reference}&back=${encodeURIComponent(request.returnUrl)}`,
      reference,
      extra: { ip: request.customerIp },
    };
  },
  postValidate: async ({ params, transaction }: PaymentReturn): Promise<PaymentOutcome> => {
    const note = `test-pay said ${params.result}`;
    if (params.payment !== transaction.reference) {
      return { status: 'pending_payment', paid: 0, note: 'a return naming another payment: ignored' };
    }
    if (params.result === 'ok') return { status: 'paid', paid: transaction.amount, note };
    if (params.result === 'review') return { status: 'payment_review', paid: 0, note };
    if (params.result === 'cancel') return { status: 'canceled', paid: 0, note };
    if (params.result === 'fail') return { status: 'pending_payment', paid: 0, failed: true, note };
    return { status: 'pending_payment', paid: 0, note };
  },
};

/** A carrier whose methods deliver to pickup points (rows of type `test-carrier`). */
const testCarrier: ShippingProvider = {
  type: 'test-carrier',
  name: 'Test carrier',
  quote: (methods: ShippingMethod[], context: ShippingContext) =>
    methods.flatMap((method) => tableRate(method, context, { pickupPoints: true }) ?? []),
};

/** Declared like a real plugin; its CP page has no header link. */
@Injectable()
@PluginDeclaration()
class TestPlugin implements StorefrontPlugin {
  readonly handle = 'test-plugin';
  readonly name = 'Test plugin';
  readonly paymentGateways = [testPayGateway];
  readonly shippingProviders = [testCarrier];
  readonly cp = {};
}

/** Also counts `plugins-after-load`, which the registrar registers every declared plugin on. */
@Module({ controllers: [GatedController, TestPluginCpController], providers: [TestPlugin] })
export class TestPluginModule implements OnModuleInit {
  constructor(private readonly events: EventEmitter2) {}

  onModuleInit(): void {
    this.events.on(PLUGINS_AFTER_LOAD, () => loadEvents.push(PLUGINS_AFTER_LOAD));
  }
}
