import { Body, Controller, Get, HttpCode, Param, Post, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { JsonReader } from './bankpay-input';
import { BANKPAY_BASE, FAULT_MODES, FaultMode, SandboxApplication, SandboxPayment } from './bankpay-sandbox.model';
import { BankpaySandboxState, PaymentOverrides } from './bankpay-sandbox.state';
import { bankError, illegalArgument, SandboxAnswerFilter } from '../common/sandbox-answers';
import { SandboxControlController } from '../common/sandbox-control';

/**
 * Switches for tests (and a developer poking at the demo): fault modes, forced statuses, settings, stats,
 * the stored requests, and a reset. Not part of the bank's API, so the fault modes never touch it.
 */
@ApiExcludeController()
@SkipCsrf()
@UseFilters(SandboxAnswerFilter)
@Controller(`${BANKPAY_BASE}/_control`)
export class BankpayControlController extends SandboxControlController {
  constructor(private readonly state: BankpaySandboxState) {
    super(state);
  }

  /** `{ mode, paths? }`: make the token endpoint and /v1 time out, fail with 503 or answer garbage. */
  @Post('mode')
  @HttpCode(200)
  setMode(@Body() body: unknown) {
    const reader = JsonReader.of(body);
    const mode = reader.string('mode', {
      pattern: new RegExp(`^(${FAULT_MODES.join('|')})$`),
      patternHint: `one of ${FAULT_MODES.join(', ')}`,
    }) as FaultMode;
    return this.state.setMode(mode, readPaths(reader.value('paths')));
  }

  @Post('settings')
  @HttpCode(200)
  updateSettings(@Body() body: unknown) {
    const reader = JsonReader.of(body);
    const tokenLifetimeSeconds = reader.optionalNumber('tokenLifetimeSeconds', { min: 0 });
    const settleAfterMs = reader.optionalNumber('settleAfterMs', { min: 0 });
    const refuseRefunds = reader.value('refuseRefunds');
    if (refuseRefunds !== undefined && typeof refuseRefunds !== 'boolean')
      throw illegalArgument('refuseRefunds: must be true or false');
    return this.state.updateSettings({
      ...(tokenLifetimeSeconds !== undefined ? { tokenLifetimeSeconds } : {}),
      ...(settleAfterMs !== undefined ? { settleAfterMs } : {}),
      ...(refuseRefunds !== undefined ? { refuseRefunds } : {}),
    });
  }

  @Get('payments')
  payments() {
    return this.state.listPayments();
  }

  @Get('payments/:id')
  payment(@Param('id') id: string) {
    return this.existingPayment(id);
  }

  /** Forces `authorizationStatus`, `selectedPaymentMethod` and/or `status`; a forced status beats the derived one. */
  @Post('payments/:id')
  @HttpCode(200)
  forcePayment(@Param('id') id: string, @Body() body: unknown) {
    return this.state.updatePayment(this.existingPayment(id), readOverrides(body));
  }

  @Get('applications')
  applications() {
    return this.state.listApplications();
  }

  @Get('applications/:id')
  application(@Param('id') id: string) {
    return this.existingApplication(id);
  }

  @Post('applications/:id')
  @HttpCode(200)
  forceApplication(@Param('id') id: string, @Body() body: unknown) {
    return this.state.setApplicationStatus(this.existingApplication(id), JsonReader.of(body).string('status'));
  }

  private existingPayment(id: string): SandboxPayment {
    const payment = this.state.payment(id);
    if (!payment) throw bankError(404, 'PAYMENT_NOT_FOUND', `No payment ${id}.`);
    return payment;
  }

  private existingApplication(id: string): SandboxApplication {
    const application = this.state.application(id);
    if (!application) throw bankError(404, 'APPLICATION_NOT_FOUND', `No application ${id}.`);
    return application;
  }
}

/** The optional path prefixes of a mode, relative to the bank's base (`/v1/payments`, `/auth`). */
function readPaths(paths: unknown): string[] | undefined {
  if (paths === undefined) return undefined;
  const valid =
    Array.isArray(paths) && paths.length > 0 && paths.every((path) => typeof path === 'string' && path.startsWith('/'));
  if (!valid) throw illegalArgument('paths: must be a non-empty array of path prefixes such as "/v1/payments"');
  return paths as string[];
}

/** The values to force; null clears `selectedPaymentMethod` or `status`, a missing key leaves it alone. */
function readOverrides(body: unknown): PaymentOverrides {
  const reader = JsonReader.of(body);
  const fields = body as Record<string, unknown>;
  const overrides: PaymentOverrides = {};
  if (reader.has('authorizationStatus')) overrides.authorizationStatus = reader.string('authorizationStatus');
  if (Object.hasOwn(fields, 'selectedPaymentMethod')) {
    overrides.selectedPaymentMethod = reader.has('selectedPaymentMethod')
      ? reader.string('selectedPaymentMethod')
      : null;
  }
  if (Object.hasOwn(fields, 'status')) overrides.status = readForcedStatus(fields.status);
  return overrides;
}

function readForcedStatus(status: unknown): PaymentOverrides['status'] {
  if (status === null || typeof status === 'string') return status;
  if (typeof status === 'object' && !Array.isArray(status)) return status as Record<string, unknown>;
  throw illegalArgument('status: must be a string, an object or null');
}
