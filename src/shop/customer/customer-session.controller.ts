import { Controller, Get, Header, Param, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { csrf } from '../../common/csrf';
import { CustomerSectionsService } from './account/customer-sections.service';

/** Session endpoints every page needs, registered whether or not customer accounts are enabled. */
@ApiTags('customer')
@Controller('shop/customer')
export class CustomerSessionController {
  constructor(private readonly sections: CustomerSectionsService) {}

  @Get('csrf-token')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ description: '{ csrfToken } for the X-CSRF-Token header or the _csrf form field' })
  csrfToken(@Req() req: Request): { csrfToken: string } {
    return { csrfToken: csrf.generateToken(req) };
  }

  /**
   * A private section of a shared-cached page: `mini-cart` `{ itemCount, subtotal, currency }`, `customer`
   * `{ loggedIn, firstName }`, `wishlist-count` `{ count }`. Unknown ids are a 404.
   */
  @Get('section-load/:sid')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ description: '{ success: true, ...section data }' })
  async sectionLoad(@Param('sid') sid: string, @Req() req: Request): Promise<Record<string, unknown>> {
    return { success: true, ...(await this.sections.load(sid, req)) };
  }
}
