import { Controller, Get, Header, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { csrf } from '../../common/csrf';

/** Session endpoints every page needs, registered whether or not customer accounts are enabled. */
@ApiTags('customer')
@Controller('shop/customer')
export class CustomerSessionController {
  @Get('csrf-token')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ description: '{ csrfToken } for the X-CSRF-Token header or the _csrf form field' })
  csrfToken(@Req() req: Request): { csrfToken: string } {
    return { csrfToken: csrf.generateToken(req) };
  }
}
