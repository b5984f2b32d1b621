import { Body, Controller, Get, HttpCode, Param, Post, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { SandboxAnswerFilter } from '../common/sandbox-answers';
import { SandboxControlController } from '../common/sandbox-control';
import { carrierError } from './carrier-a-answers';
import { CARRIER_A_BASE, FAULT_MODES, FaultMode } from './carrier-a-sandbox.model';
import { CarrierASandboxState } from './carrier-a-sandbox.state';

/**
 * Switches for tests and the demo: fault mode, odd parcel numbers, stored parcels, tracking steps (stats and
 * reset: the base).
 */
@ApiExcludeController()
@SkipCsrf()
@UseFilters(SandboxAnswerFilter)
@Controller(`${CARRIER_A_BASE}/_control`)
export class CarrierAControlController extends SandboxControlController {
  constructor(private readonly state: CarrierASandboxState) {
    super(state);
  }

  /** `{ mode }`: make every /v1 call time out, fail with 503, answer garbage, or behave. */
  @Post('mode')
  @HttpCode(200)
  setMode(@Body() body: { mode?: unknown } | undefined) {
    const mode = body?.mode;
    if (typeof mode !== 'string' || !(FAULT_MODES as readonly string[]).includes(mode)) {
      throw carrierError(400, `mode: one of ${FAULT_MODES.join(', ')}`);
    }
    return this.state.setMode(mode as FaultMode);
  }

  /** `{ parcelNumbers: [...] }`: the next parcels are numbered with these strings, whatever they hold. */
  @Post('parcel-numbers')
  @HttpCode(200)
  queueParcelNumbers(@Body() body: { parcelNumbers?: unknown } | undefined) {
    const numbers = body?.parcelNumbers;
    if (!Array.isArray(numbers) || numbers.length === 0 || !numbers.every((n) => typeof n === 'string')) {
      throw carrierError(400, 'parcelNumbers: a non-empty array of strings');
    }
    return this.state.queueParcelNumbers(numbers as string[]);
  }

  @Get('parcels')
  parcels() {
    return this.state.listParcels();
  }

  /** `{ steps? }` (default 1): moves the parcel on along its route, as if time had passed. */
  @Post('parcels/:id/advance')
  @HttpCode(200)
  advance(@Param('id') id: string, @Body() body: { steps?: unknown } | undefined) {
    const parcel = this.state.parcel(id);
    if (!parcel) throw carrierError(404, `Parcel ${id} not found`);
    const steps = body?.steps ?? 1;
    if (typeof steps !== 'number' || !Number.isInteger(steps) || steps < 1) {
      throw carrierError(400, 'steps: must be a positive integer');
    }
    this.state.advance(parcel, steps);
    return { status: this.state.status(parcel), events: this.state.tracking(parcel) };
  }
}
