import {
  Body,
  Controller,
  Delete,
  Get,
  Param,
  Post,
  Query,
  StreamableFile,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { SandboxAnswerFilter } from '../common/sandbox-answers';
import { carrierError } from './carrier-a-answers';
import { CarrierAApiGuard } from './carrier-a-api.guard';
import { labelPdf } from './carrier-a-label';
import { readParcel } from './carrier-a-parcel-input';
import { MAX_PARCELSHOPS, parcelShopsNear } from './carrier-a-parcelshops';
import { CARRIER_A_BASE, SandboxParcel } from './carrier-a-sandbox.model';
import { CarrierASandboxState } from './carrier-a-sandbox.state';

/** Carrier A's REST API (docs/integrations.md): parcels, labels, tracking and ParcelShops, behind HTTP Basic. */
@ApiExcludeController()
@SkipCsrf()
@UseFilters(SandboxAnswerFilter)
@UseGuards(CarrierAApiGuard)
@Controller(`${CARRIER_A_BASE}/v1`)
export class CarrierAApiController {
  constructor(private readonly state: CarrierASandboxState) {}

  @Post('parcels')
  createParcel(@Body() body: unknown) {
    const { problems, parcel } = readParcel(body);
    if (!parcel) throw carrierError(400, ...problems);
    const created = this.state.createParcel(parcel);
    return { id: created.id, parcelNumber: created.parcelNumber, status: this.state.status(created) };
  }

  @Get('parcels/:id')
  parcel(@Param('id') id: string) {
    const parcel = this.existing(id);
    return {
      id: parcel.id,
      parcelNumber: parcel.parcelNumber,
      status: this.state.status(parcel),
      reference: parcel.reference,
      recipient: parcel.recipient,
      weight: parcel.weight,
      dateCreated: new Date(parcel.createdAt).toISOString(),
    };
  }

  /** Cancels a parcel until the carrier picks it up; after that the carrier refuses with 409. */
  @Delete('parcels/:id')
  cancel(@Param('id') id: string) {
    const parcel = this.existing(id);
    if (!this.state.cancel(parcel)) {
      throw carrierError(409, `Parcel ${parcel.parcelNumber} is ${this.state.status(parcel)} and cannot be canceled`);
    }
    return { id: parcel.id, parcelNumber: parcel.parcelNumber, status: this.state.status(parcel) };
  }

  @Get('parcels/:id/label')
  async label(@Param('id') id: string, @Query('format') format: string | undefined): Promise<StreamableFile> {
    const parcel = this.existing(id);
    if ((format ?? 'pdf') !== 'pdf') throw carrierError(400, 'format: only pdf is supported');
    const pdf = await labelPdf(parcel);
    return new StreamableFile(pdf, { type: 'application/pdf', length: pdf.length });
  }

  @Get('parcels/:id/tracking')
  tracking(@Param('id') id: string) {
    const parcel = this.existing(id);
    return {
      parcelNumber: parcel.parcelNumber,
      status: this.state.status(parcel),
      events: this.state.tracking(parcel),
    };
  }

  @Get('parcelshops')
  parcelShops(
    @Query('countryCode') countryCode: unknown,
    @Query('zipCode') zipCode: unknown,
    @Query('limit') limit: unknown,
  ) {
    if (typeof countryCode !== 'string' || !/^[A-Z]{2}$/.test(countryCode)) {
      throw carrierError(400, 'countryCode: must be an ISO 3166-1 alpha-2 code');
    }
    const zip = typeof zipCode === 'string' ? zipCode.replace(/\s+/g, '') : '';
    const count = limit === undefined ? MAX_PARCELSHOPS : Number(limit);
    if (!Number.isInteger(count) || count < 1) throw carrierError(400, 'limit: must be a positive integer');
    return { items: parcelShopsNear(countryCode, zip, count) };
  }

  private existing(id: string): SandboxParcel {
    const parcel = this.state.parcel(id);
    if (!parcel) throw carrierError(404, `Parcel ${id} not found`);
    return parcel;
  }
}
