import { Body, Controller, Get, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { SkipCsrf } from '../../../common/decorators/skip-csrf.decorator';
import { Redirect } from '../../../web/answers/answers';
import { PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { SocialLoginService } from './social-login.service';
import { SocialProviderGuard } from './social-provider.guard';

/** The fields of a provider's form-post answer that the callback reads. */
const CALLBACK_FIELDS = ['code', 'state', 'error', 'user'];

/** Social login: `/shop/auth/social/{provider}` and its callback (docs/shop.md, _Social login_). */
@ApiTags('customer')
@RequiresFeature('customerAccountsEnabled')
@UseGuards(SocialProviderGuard)
@Controller('shop/auth/social')
export class SocialLoginController {
  constructor(private readonly login: SocialLoginService) {}

  @Get(':provider')
  @ApiFoundResponse({ description: "Redirect to the provider's sign-in page; `return` is a path to come back to" })
  async start(@Req() req: Request, @Query('return') returnTo: unknown): Promise<Redirect> {
    return new Redirect(await this.login.start(req, req.socialSetup!, returnTo), 302);
  }

  @Get(':provider/callback')
  @ApiFoundResponse({ description: 'Logged in: redirect to the remembered page or /shop/account; else /shop/login' })
  async callback(@Req() req: Request, @PageText() text: PageTextFn): Promise<Redirect> {
    return this.login.finish(req, text, req.socialSetup!);
  }

  /**
   * Apple answers with a cross-site form post, which carries no SameSite=Lax session cookie. Turning it
   * into a top-level GET of the callback brings the cookie back; the `state` inside still has to match.
   */
  @Post(':provider/callback')
  @SkipCsrf()
  @ApiExcludeEndpoint()
  formPost(@Param('provider') provider: string, @Body() body: Record<string, unknown> | undefined): Redirect {
    const query = new URLSearchParams();
    for (const name of CALLBACK_FIELDS) {
      const value = body?.[name];
      if (typeof value === 'string') query.set(name, value);
    }
    return new Redirect(`/shop/auth/social/${encodeURIComponent(provider)}/callback?${query}`);
  }
}
