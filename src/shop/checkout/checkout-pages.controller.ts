import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { OrdersService } from '../../commerce/orders/orders.service';
import { PaymentService } from '../../commerce/payments/payment.service';
import { OrderPageService } from './order-page.service';

/** The pages a shopper lands on after placing an order or returning from the gateway. */
@ApiExcludeController()
@Controller('shop/checkout')
export class CheckoutPagesController {
  constructor(
    private readonly orders: OrdersService,
    private readonly payments: PaymentService,
    private readonly pages: OrderPageService,
  ) {}

  /** Needs the order this browser just placed; without one there is nothing to confirm. */
  @Get('success')
  async success(@Req() req: Request, @Res() res: Response): Promise<void> {
    const order = await this.orders.byNumber(req.session.lastOrderNumber);
    if (!order) return res.redirect(302, '/shop/cart');
    if ((await this.payments.nextStep(order.id)).kind === 'failed') return res.redirect(302, '/shop/checkout/failed');
    res.setHeader('Cache-Control', 'private, no-store');
    res.render('shop/checkout/success', { title: 'Thank you for your order', order: await this.pages.view(order) });
  }

  /** For the order this browser placed, while its payment failed or it was canceled; else the success page. */
  @Get('failed')
  async failed(@Req() req: Request, @Res() res: Response): Promise<void> {
    const order = await this.orders.byNumber(req.session.lastOrderNumber);
    if (!order) return res.redirect(302, '/shop/cart');
    if ((await this.payments.nextStep(order.id)).kind !== 'failed') return res.redirect(302, '/shop/checkout/success');
    res.setHeader('Cache-Control', 'private, no-store');
    res.render('shop/checkout/failed', { title: 'Payment not completed', order: await this.pages.view(order) });
  }
}
