import { Controller, Get, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { OssReport, OssRow, QUARTER } from '../../commerce/tax/oss-report.service';
import { ratePercent } from '../../commerce/tax/tax-class';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { FileAnswer, PageView } from '../../web/answers/answers';

class QuarterQuery {
  /** `2026-Q3`; the current quarter when not given. */
  @IsOptional()
  @Matches(QUARTER, { message: 'must be a year and quarter, e.g. 2026-Q3' })
  quarter?: string;
}

/** The quarter `moment` falls in (UTC), e.g. `2026-Q4`. */
function quarterOf(moment: Date): string {
  return `${moment.getUTCFullYear()}-Q${Math.floor(moment.getUTCMonth() / 3) + 1}`;
}

/**
 * Tax reports in the CP (docs/shop.md, _VAT by destination_), behind `accessReports`: the quarterly One-Stop-Shop
 * report as a page and as CSV.
 */
@ApiExcludeController()
@CpPermission('accessReports')
@Controller('reports')
export class CpReportsController {
  constructor(
    private readonly oss: OssReport,
    private readonly currencies: CurrencyService,
  ) {}

  @Get('oss')
  async page(@Query() query: QuarterQuery): Promise<PageView> {
    const quarter = query.quarter ?? quarterOf(new Date());
    const rows = await this.displayed(await this.oss.rows(quarter));
    return new PageView('cp/reports-oss', { layout: 'cp', title: `OSS report ${quarter}`, quarter, rows });
  }

  @Get('oss.csv')
  async csv(@Query() query: QuarterQuery): Promise<FileAnswer> {
    const quarter = query.quarter ?? quarterOf(new Date());
    const rows = await this.displayed(await this.oss.rows(quarter));
    const lines = [
      'country,rate,currency,net,vat',
      ...rows.map((row) => [row.country, row.rate, row.currency, row.net, row.vat].join(',')),
    ];
    return new FileAnswer(`${lines.join('\r\n')}\r\n`, {
      type: 'text/csv; charset=utf-8',
      filename: `oss-${quarter}.csv`,
      disposition: 'attachment',
    });
  }

  /** Rates as percent and amounts in major units of their currency (12.50), as the return is filled in. */
  private async displayed(rows: OssRow[]) {
    return Promise.all(
      rows.map(async (row) => {
        const { decimals } = await this.currencies.recorded(row.currency);
        return {
          country: row.country,
          rate: ratePercent(row.rate),
          currency: row.currency,
          net: (row.net / 10 ** decimals).toFixed(decimals),
          vat: (row.vat / 10 ** decimals).toFixed(decimals),
        };
      }),
    );
  }
}
