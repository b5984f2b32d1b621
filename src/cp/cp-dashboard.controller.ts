import { Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { CpOpenToStaff } from '../common/decorators/cp-permission.decorator';
import { cpUserHolds } from '../common/session-data';
import { formatMoney } from '../common/money-format';
import { toMajor } from '../common/money';
import { ProductSales, SalesFigures, ShopStatistics } from '../commerce/statistics/shop-statistics.service';
import { JobQueue } from '../jobs/job-queue.service';
import { PageView } from '../web/answers/answers';
import { PageLanguage } from '../web/i18n/page-text.decorator';
import { barChart, dayFormatter } from './dashboard-chart';

/** The CP home: open to all staff, each figure only to those who may open the page it links to. */
@ApiExcludeController()
@CpOpenToStaff()
@Controller()
export class CpDashboardController {
  constructor(
    private readonly statistics: ShopStatistics,
    private readonly jobs: JobQueue,
  ) {}

  @Get()
  async dashboard(@Req() req: Request, @PageLanguage() language: string): Promise<PageView> {
    const staff = req.cpStaff!;
    const ordersShown = cpUserHolds(staff, 'accessOrders');
    const [sales, waiting, jobs] = await Promise.all([
      ordersShown ? this.statistics.sales() : null,
      ordersShown ? this.statistics.waiting() : null,
      cpUserHolds(staff, 'accessJobs') ? this.jobCounts() : null,
    ]);
    return new PageView('cp/dashboard', {
      layout: 'cp',
      title: 'Dashboard',
      sales: sales && salesView(sales, language),
      waitingShown: Boolean(waiting || jobs),
      waiting,
      jobs,
    });
  }

  private async jobCounts() {
    const [pending, failed] = await Promise.all([
      this.jobs.countByStatus('pending'),
      this.jobs.countByStatus('failed'),
    ]);
    return { pending, failed };
  }
}

/** The figures as the page shows them: amounts in major units for `formatPrice`, the charts drawn. */
function salesView(sales: SalesFigures, language: string) {
  const { currency } = sales;
  const major = (minor: number) => toMajor(minor, currency.decimals);
  const money = (minor: number) => formatMoney(minor, currency, language);
  // Axis labels in whole units: "€1,500" rather than "€1,500.00".
  const axisMoney = (minor: number) => formatMoney(major(minor), { code: currency.code, decimals: 0 }, language);
  const day = dayFormatter(language);
  const best = sales.days.reduce((top, current) => (current.revenue > top.revenue ? current : top));
  const period = `${day(sales.from)} – ${day(sales.to)}`;
  const products = (list: ProductSales[]) => list.map((product) => ({ ...product, revenue: major(product.revenue) }));
  const { funnel } = sales;
  const step = (label: string, count: number, counts: string) => ({ label, count, counts, of: funnel.cartsCreated });
  return {
    currency,
    period,
    timeZone: sales.timeZone,
    revenue: major(sales.revenue),
    refunded: major(sales.refunded),
    orders: sales.orders,
    averageOrderValue: major(sales.averageOrderValue),
    revenueChart: barChart({
      id: 'revenue-chart',
      title: `Revenue per day, ${period}`,
      summary:
        sales.orders === 0
          ? 'No sales in the period.'
          : `${money(sales.revenue)} in total; the best day was ${day(best.date)} with ${money(best.revenue)}.`,
      days: sales.days.map(({ date, revenue }) => ({ date, value: revenue })),
      unit: 10 ** currency.decimals,
      label: money,
      tickLabel: axisMoney,
      language,
    }),
    ordersChart: barChart({
      id: 'orders-chart',
      title: `Orders per day, ${period}`,
      summary: `${sales.orders} orders in total.`,
      days: sales.days.map(({ date, orders }) => ({ date, value: orders })),
      unit: 1,
      label: String,
      language,
    }),
    days: sales.days.map((entry) => ({ day: day(entry.date), revenue: major(entry.revenue), orders: entry.orders })),
    topByUnits: products(sales.topByUnits),
    topByRevenue: products(sales.topByRevenue),
    funnel: [
      step('Carts created', funnel.cartsCreated, 'every cart started in the period'),
      step('Carts with items', funnel.cartsWithItems, 'of those, carts holding a product (or already ordered)'),
      step('Checkouts started', funnel.checkoutsStarted, 'of those, carts with a checkout e-mail entered'),
      step('Orders placed', funnel.ordersPlaced, 'of those, carts that became an order (any status)'),
      step('Paid', funnel.ordersPaid, 'of those orders, the ones counted as revenue'),
    ],
  };
}
