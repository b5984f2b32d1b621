import { Controller, Get, Param, ParseIntPipe, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { addFlash, AppConfig, AppError, backUrl, CpPermission, InjectConfig, wantsHtml } from '../../../plugin-api';
import { CarrierAShipments } from '../carrier-a-shipments.service';
import { CarrierAConfigurationError } from '../carrier-a.errors';
import { CarrierAShipmentsCpService } from './carrier-a-shipments-cp.service';
import { CARRIER_A_STATUSES, ShipmentListQuery } from './carrier-a-shipments-filter';

/** Carrier A's shipment screens (spec "Control-panel routes", carrier-a/shipments*). */
@ApiExcludeController()
@CpPermission('accessPlugin-carrier-a')
@Controller('carrier-a/shipments')
export class CarrierAShipmentsCpController {
  constructor(
    private readonly cp: CarrierAShipmentsCpService,
    private readonly shipments: CarrierAShipments,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** The list; `?format=csv` downloads the whole filtered list instead of a page of it. */
  @Get()
  async list(@Query() query: ShipmentListQuery, @Res() res: Response): Promise<void> {
    const filter = { status: query.status, q: query.q };
    if (query.format === 'csv') {
      const csv = await this.cp.exportCsv(filter);
      const today = new Date().toISOString().slice(0, 10);
      res.setHeader('Content-Disposition', `attachment; filename="carrier-a-shipments-${today}.csv"`);
      res.setHeader('Cache-Control', 'private, no-store');
      res.type('text/csv; charset=utf-8').send(csv);
      return;
    }
    const page = query.pageNumber;
    const result = await this.cp.list(filter, page);
    const url = (extra: Record<string, string>) => `?${new URLSearchParams({ ...definedOnly(filter), ...extra })}`;
    res.render('cp/carrier-a-shipments', {
      layout: 'cp',
      title: 'Carrier A shipments',
      ...result,
      page,
      previousUrl: page > 1 ? url({ page: String(page - 1) }) : null,
      nextUrl: page < result.pages ? url({ page: String(page + 1) }) : null,
      exportUrl: url({ format: 'csv' }),
      filter,
      statuses: CARRIER_A_STATUSES,
    });
  }

  /**
   * The detail. Its tracking timeline is asked of the carrier on every view (which also keeps the stored
   * status current); when the carrier cannot answer, the page says so and shows the stored status.
   */
  @Get(':id')
  async detail(@Param('id', ParseIntPipe) id: number, @Res() res: Response): Promise<void> {
    const shipment = await this.cp.shipment(id);
    const tracking = await this.shipments.refreshTracking(shipment).then(
      (steps) => ({ steps, error: null }),
      (error: unknown) => ({ steps: [], error: carrierFailure(error).message }),
    );
    res.render('cp/carrier-a-shipment', {
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
  async label(
    @Param('id', ParseIntPipe) id: number,
    @Query('download') download: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const shipment = await this.cp.shipment(id);
    const pdf = await this.shipments.label(shipment).catch((error: unknown) => {
      throw new AppError('upstream_failed', carrierFailure(error).message, 502);
    });
    const filename = `carrier-a-${shipment.parcelNumber.replace(/[^\w-]/g, '')}.pdf`;
    res.setHeader('Content-Disposition', `${download === '1' ? 'attachment' : 'inline'}; filename="${filename}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    // Chrome shows a PDF in an <embed> governed by the response's own policy, which the pages' `object-src
    // 'none'` would blank (crbug.com/271452); a PDF needs only the framing rule.
    res.setHeader('Content-Security-Policy', "frame-ancestors 'self'");
    res.type('application/pdf').send(pdf);
  }

  @Post('create/:orderId')
  async create(
    @Param('orderId', ParseIntPipe) orderId: number,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const order = await this.cp.order(orderId);
    const orderUrl = `/${this.config.cpTrigger}/orders/${order.id}`;
    const created = await this.carrierAction(req, res, orderUrl, () => this.shipments.createParcel(order.id));
    if (!created) return;
    addFlash(req, 'success', `Carrier A parcel ${created.parcelNumber} created for order ${order.reference}.`);
    res.redirect(303, this.detailUrl(created.id));
  }

  @Post('refresh/:id')
  async refresh(@Param('id', ParseIntPipe) id: number, @Req() req: Request, @Res() res: Response): Promise<void> {
    const shipment = await this.cp.shipment(id);
    const steps = await this.carrierAction(req, res, this.detailUrl(id), () =>
      this.shipments.refreshTracking(shipment),
    );
    if (!steps) return;
    addFlash(req, 'success', `Tracking refreshed: the parcel is ${shipment.status}.`);
    res.redirect(303, this.detailUrl(id));
  }

  /** A new parcel and label for the same order; the earlier parcel stays registered with the carrier. */
  @Post('resync/:id')
  async resync(@Param('id', ParseIntPipe) id: number, @Req() req: Request, @Res() res: Response): Promise<void> {
    const shipment = await this.cp.shipment(id);
    const created = await this.carrierAction(req, res, this.detailUrl(id), () =>
      this.shipments.createParcel(shipment.orderId),
    );
    if (!created) return;
    addFlash(
      req,
      'success',
      `New carrier A parcel ${created.parcelNumber} created; parcel ${shipment.parcelNumber} is still registered with the carrier.`,
    );
    res.redirect(303, this.detailUrl(created.id));
  }

  @Post('delete-label/:id')
  async deleteLabel(@Param('id', ParseIntPipe) id: number, @Req() req: Request, @Res() res: Response): Promise<void> {
    const deleted = await this.shipments.deleteLabel(await this.cp.shipment(id));
    addFlash(
      req,
      deleted ? 'success' : 'info',
      deleted
        ? 'The stored label was deleted; the parcel is kept, and the next label view fetches the label again.'
        : 'There is no stored label to delete.',
    );
    res.redirect(303, this.detailUrl(id));
  }

  private detailUrl(id: number): string {
    return `/${this.config.cpTrigger}/carrier-a/shipments/${id}`;
  }

  /**
   * Runs a carrier call for a form post. When the carrier fails, the staff member goes back where they came
   * from (else `fallback`) with the carrier's message as an error flash, and null is returned; a script gets
   * the 502 of docs/http-contract.md.
   */
  private async carrierAction<T>(
    req: Request,
    res: Response,
    fallback: string,
    call: () => Promise<T>,
  ): Promise<T | null> {
    try {
      return await call();
    } catch (error) {
      const failure = carrierFailure(error);
      if (!wantsHtml(req)) throw new AppError('upstream_failed', failure.message, 502);
      addFlash(req, 'error', failure.message);
      res.redirect(303, backUrl(req, fallback));
      return null;
    }
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
