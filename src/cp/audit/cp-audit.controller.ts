import { Controller, Get, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { AUDIT_AREAS, AuditArea, AuditChange, AuditEntry } from '../../commerce/audit/audit-entry.entity';
import { AuditLog } from '../../commerce/audit/audit-log.service';
import { isCalendarDate, shopDayStart } from '../../commerce/delivery/shop-calendar';
import { CpListQuery } from '../../common/cp-list.query';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { SettingsService } from '../../config/settings.service';
import { PageView } from '../../web/answers/answers';

/** Blank (no bound) or a real date written `YYYY-MM-DD`, as a date field sends it. */
const IsOptionalDate = () =>
  ValidateBy({
    name: 'isOptionalDate',
    validator: {
      validate: (value: unknown) => value === '' || isCalendarDate(value),
      defaultMessage: () => 'must be a date like 2026-11-27',
    },
  });

/** The filter form: `?area=&actor=&q=&from=&to=&page=`; blank fields filter nothing. */
class AuditQuery extends CpListQuery {
  @IsOptional()
  @IsIn(['', ...AUDIT_AREAS])
  area?: AuditArea | '';

  @IsOptional()
  @IsString()
  @MaxLength(191)
  actor?: string;

  /** First day shown, in the shop's time zone. */
  @IsOptional()
  @IsOptionalDate()
  from?: string;

  /** Last day shown, in the shop's time zone. */
  @IsOptional()
  @IsOptionalDate()
  to?: string;
}

/** Who changed what, newest first, behind `accessAudit`. */
@ApiExcludeController()
@CpPermission('accessAudit')
@Controller('audit')
export class CpAuditController {
  constructor(
    private readonly audit: AuditLog,
    private readonly settings: SettingsService,
  ) {}

  @Get()
  async list(@Query() query: AuditQuery): Promise<PageView> {
    const page = query.pageNumber;
    // The dates are whole days on the shop's clock: `to` includes its day.
    const timeZone = this.settings.get('salesTimezone');
    const { entries, hasNext } = await this.audit.list({
      area: query.area || undefined,
      actor: query.actor?.trim() || undefined,
      q: query.q?.trim() || undefined,
      from: query.from ? new Date(shopDayStart(timeZone, query.from)) : undefined,
      to: query.to ? new Date(shopDayStart(timeZone, query.to, 1)) : undefined,
      page,
    });
    return new PageView('cp/audit', {
      layout: 'cp',
      title: 'Audit log',
      areas: AUDIT_AREAS,
      filter: query,
      timeZone,
      entries: entries.map(shown),
      page,
      // Without a count: as far as is known, the next page (when there is one) is the last.
      pagesKnown: hasNext ? page + 1 : page,
    });
  }
}

/** An entry as the list shows it: each change as "field: from → to". */
function shown(entry: AuditEntry) {
  return {
    ...entry,
    changes: Object.entries(entry.changes).map(([field, change]) => changeLine(field, change)),
  };
}

function changeLine(field: string, { from, to }: AuditChange): string {
  return `${field}: ${valueText(from)} → ${valueText(to)}`;
}

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
