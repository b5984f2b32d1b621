import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SiteEndpointQuery, SiteEndpointRegistry } from '../../commerce/plugin-endpoints/site-endpoint.registry';
import { AppError } from '../../common/errors/app-error';

/** `GET /index.php?p=<route>`: the plugins' anonymous storefront endpoints, by their registered route. */
@ApiTags('plugin endpoints')
@Controller()
export class PluginEndpointsController {
  constructor(private readonly endpoints: SiteEndpointRegistry) {}

  @Get('index.php')
  async dispatch(@Query() query: Record<string, unknown>): Promise<unknown> {
    const route = firstString(query.p);
    const handler = route === undefined ? undefined : this.endpoints.get(route);
    if (!handler) throw AppError.notFound();
    const params: SiteEndpointQuery = {};
    for (const [name, value] of Object.entries(query)) {
      const text = firstString(value);
      if (name !== 'p' && text !== undefined) params[name] = text;
    }
    return handler(params);
  }
}

function firstString(value: unknown): string | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}
