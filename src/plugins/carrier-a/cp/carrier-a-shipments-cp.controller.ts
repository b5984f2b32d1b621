import { Body, Controller, Get, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { IsIn, IsOptional } from 'class-validator';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  AppConfig,
  commonErrors,
  CpConfirmationDto,
  CpPermission,
  FileAnswer,
  FormAnswer,
  InjectConfig,
  PageView,
  requireConfirmation,
  wantsHtml,
} from '../../../plugin-api';
import { CarrierAShipmentCarrier } from '../carrier-a-shipment-carrier';
import { CarrierAShipments } from '../carrier-a-shipments.service';
import { CarrierAAutoShipments } from '../carrier-a-auto-shipments.service';
import { carrierAErrors, CarrierAConfigurationError } from '../carrier-a.errors';
import { CarrierAStaffParcels, ParcelRefused } from '../carrier-a-staff-parcels';
import { ANOTHER_PARCEL } from './carrier-a-order-section';
import { CarrierAShipmentsCpService } from './carrier-a-shipments-cp.service';
import {
  CARRIER_A_STATUSES,
  NEWEST_SHIPMENTS_FIRST,
  SHIPMENT_SORTS,
  ShipmentListQuery,
} from './carrier-a-shipments-filter';

class CreateParcelDto {
  /** The tick that confirms one more parcel for an order that has one. */
  @IsOptional()
  @IsIn(['on'])
  [ANOTHER_PARCEL]?: 'on';
}

/** Carrier A's shipment screens (`carrier-a/shipments*`). */
@ApiExcludeController()
@CpPermission('accessPlugin-carrier-a')
@Controller('carrier-a/shipments')
export class CarrierAShipmentsCpController {
  constructor(
    private readonly cp: CarrierAShipmentsCpService,
    private readonly shipments: CarrierAShipments,
    private readonly parcels: CarrierAShipmentCarrier,
    private readonly staffParcels: CarrierAStaffParcels,
    private readonly automatic: CarrierAAutoShipments,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** The list; `?format=csv` downloads the whole filtered list instead of a page of it. */
  @Get()
  async list(@Query() query: ShipmentListQuery): Promise<FileAnswer | PageView> {
    const filter = { status: query.status, q: query.q };
    if (query.format === 'csv') {
      const today = new Date().toISOString().slice(0, 10);
      return new FileAnswer(await this.cp.exportCsv(filter), {
        type: 'text/csv; charset=utf-8',
        filename: `carrier-a-shipments-${today}.csv`,
        disposition: 'attachment',
        headers: { 'Cache-Control': 'private, no-store' },
      });
    }
    const page = query.pageNumber;
    const result = await this.cp.list(filter, page, query.sortBy(SHIPMENT_SORTS, NEWEST_SHIPMENTS_FIRST));
    const url = (extra: Record<string, string>) => `?${new URLSearchParams({ ...definedOnly(filter), ...extra })}`;
    return new PageView('cp/carrier-a-shipments', {
      layout: 'cp',
      title: 'Carrier A shipments',
      ...result,
      page,
      exportUrl: url({ format: 'csv' }),
      filter,
      sort: query.sort,
      statuses: CARRIER_A_STATUSES,
    });
  }

  /**
   * The detail. Its tracking timeline is asked of the carrier on every view (which also keeps the stored
   * status current, and the order's shipment with it); when the carrier cannot answer, the page says so and shows the stored status.
   */
  @Get(':id')
  async detail(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const shipment = await this.cp.shipment(id);
    const tracking = await this.parcels.refresh(shipment).then(
      (steps) => ({ steps, error: null }),
      (error: unknown) => ({ steps: [], error: carrierFailure(error).message }),
    );
    return new PageView('cp/carrier-a-shipment', {
      layout: 'cp',
      title: `Carrier A parcel ${shipment.parcelNumber}`,
      shipment,
      ...(await this.cp.detail(shipment)),
      timeline: tracking.steps,
      trackingError: tracking.error,
    });
  }

  /** The label PDF, shown in the browser, or downloaded with `?download=1`. */
  @Get(':id/label')
  async label(@Param('id', ParseIntPipe) id: number, @Query('download') download: unknown): Promise<FileAnswer> {
    const shipment = await this.cp.shipment(id);
    const pdf = await this.shipments.label(shipment).catch((error: unknown) => {
      throw commonErrors.upstream_failed({ failure: carrierFailure(error).message });
    });
    return new FileAnswer(pdf, {
      type: 'application/pdf',
      filename: `carrier-a-${shipment.parcelNumber.replace(/[^\w-]/g, '')}.pdf`,
      disposition: download === '1' ? 'attachment' : 'inline',
      headers: {
        'Cache-Control': 'private, no-store',
        // Chrome shows a PDF in an <embed> governed by the response's own policy, which the pages' `object-src
        // 'none'` would blank (crbug.com/271452); a PDF needs only the framing rule.
        'Content-Security-Policy': "frame-ancestors 'self'",
      },
    });
  }

  /**
   * A parcel for the order, from its order page: refused for a canceled or refunded order, and for an order that has
   * a parcel already unless `another` is ticked.
   */
  @Post('create/:orderId')
  async create(
    @Param('orderId', ParseIntPipe) orderId: number,
    @Body() body: CreateParcelDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const order = await this.cp.order(orderId);
    const orderUrl = `/${this.config.cpTrigger}/orders/${order.id}`;
    return this.carrierAction(req, orderUrl, {
      call: () => this.staffParcels.create(order.id, body[ANOTHER_PARCEL] === 'on'),
      done: (created) =>
        new FormAnswer(`Carrier A parcel ${created.parcelNumber} created for order ${order.reference}.`, {
          to: this.detailUrl(created.id),
        }),
    });
  }

  /** The order's failed automatic parcel tried again, by its job (the order page shows the outcome). */
  @Post('retry-auto/:orderId')
  async retryAutomatic(@Param('orderId', ParseIntPipe) orderId: number): Promise<FormAnswer> {
    const order = await this.cp.order(orderId);
    const orderPage = { to: `/${this.config.cpTrigger}/orders/${order.id}` };
    if (await this.automatic.retry(order.id)) {
      return FormAnswer.note(
        'success',
        `The automatic parcel of order ${order.reference} is being tried again.`,
        orderPage,
      );
    }
    return FormAnswer.note('info', 'The automatic parcel has not failed: there is nothing to retry.', orderPage);
  }

  @Post('refresh/:id')
  async refresh(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<FormAnswer> {
    const shipment = await this.cp.shipment(id);
    return this.carrierAction(req, this.detailUrl(id), {
      call: () => this.parcels.refresh(shipment),
      done: () => new FormAnswer(`Tracking refreshed: the parcel is ${shipment.status}.`, { to: this.detailUrl(id) }),
    });
  }

  /**
   * A new parcel and label for the same order; the earlier parcel stays registered with the carrier. Refused for a
   * canceled or refunded order, and while another parcel for it is being created.
   */
  @Post('resync/:id')
  async resync(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<FormAnswer> {
    const shipment = await this.cp.shipment(id);
    return this.carrierAction(req, this.detailUrl(id), {
      call: () => this.staffParcels.create(shipment.orderId, true),
      done: (created) =>
        new FormAnswer(
          `New carrier A parcel ${created.parcelNumber} created; parcel ${shipment.parcelNumber} is still registered with the carrier.`,
          { to: this.detailUrl(created.id) },
        ),
    });
  }

  /** Asks "I am sure"; nothing to delete is told in an info flash. */
  @Post('delete-label/:id')
  async deleteLabel(@Param('id', ParseIntPipe) id: number, @Body() body: CpConfirmationDto): Promise<FormAnswer> {
    requireConfirmation(body, 'Deleting the stored label');
    const detail = { to: this.detailUrl(id) };
    if (!(await this.shipments.deleteLabel(await this.cp.shipment(id)))) {
      return FormAnswer.note('info', 'There is no stored label to delete.', detail);
    }
    const message =
      'The stored label was deleted; the parcel is kept, and the next label view fetches the label again.';
    return FormAnswer.note('success', message, detail);
  }

  private detailUrl(id: number): string {
    return `/${this.config.cpTrigger}/carrier-a/shipments/${id}`;
  }

  /**
   * Runs a carrier call for a form post and answers with what `done` makes of its result. When the carrier fails,
   * the staff member goes back where they came from (else `fallback`) with the carrier's message as an error
   * flash; a script gets the 502 of docs/http-contract.md. A parcel refused before the call goes back the same
   * way (a script gets a 409). (Not `@RefusedGoesTo`: a refusal that is not the carrier's, an unknown order or
   * parcel above all, is left to the exception filter.)
   */
  private async carrierAction<T>(
    req: Request,
    fallback: string,
    action: { call: () => Promise<T>; done: (result: T) => FormAnswer },
  ): Promise<FormAnswer> {
    let result: T;
    try {
      result = await action.call();
    } catch (error) {
      if (error instanceof ParcelRefused) {
        if (!wantsHtml(req)) throw carrierAErrors.carrier_a_parcel_refused({ reason: error.message });
        return FormAnswer.note('error', error.message, { back: fallback });
      }
      const failure = carrierFailure(error);
      if (!wantsHtml(req)) throw commonErrors.upstream_failed({ failure: failure.message });
      return FormAnswer.note('error', failure.message, { back: fallback });
    }
    return action.done(result);
  }
}

/** The carrier's failure; anything else is not the carrier's doing and goes on up. */
function carrierFailure(error: unknown): CarrierAConfigurationError {
  if (error instanceof CarrierAConfigurationError) return error;
  throw error;
}

function definedOnly(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value)) as Record<string, string>;
}
