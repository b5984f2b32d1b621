import { Body, Controller, Get, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { SkipCsrf } from '../../../common/decorators/skip-csrf.decorator';
import { SocialLoginService } from './social-login.service';
import { SocialProviderGuard } from './social-provider.guard';

/** The fields of a provider's form-post answer that the callback reads. */
const CALLBACK_FIELDS = ['code', 'state', 'error', 'user'];

/** Social login (spec "Customer and authentication": `/shop/auth/social/{provider}` and its callback). */
@ApiTags('customer')
@RequiresFeature('customerAccountsEnabled')
@UseGuards(SocialProviderGuard)
@Controller('shop/auth/social')
export class SocialLoginController {
  constructor(private readonly login: SocialLoginService) {}

  @Get(':provider')
  @ApiFoundResponse({ description: "Redirect to the provider's sign-in page; `return` is a path to come back to" })
  async start(@Req() req: Request, @Res() res: Response, @Query('return') returnTo: unknown): Promise<void> {
    res.redirect(302, await this.login.start(req, req.socialSetup!, returnTo));
  }

  @Get(':provider/callback')
  @ApiFoundResponse({ description: 'Logged in: redirect to the remembered page or /shop/account; else /shop/login' })
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    res.redirect(302, await this.login.finish(req, res, req.socialSetup!));
  }

  /**
   * Apple answers with a cross-site form post, which carries no SameSite=Lax session cookie. Turning it
   * into a top-level GET of the callback brings the cookie back; the `state` inside still has to match.
   */
  @Post(':provider/callback')
  @SkipCsrf()
  @ApiExcludeEndpoint()
  formPost(
    @Param('provider') provider: string,
    @Body() body: Record<string, unknown> | undefined,
    @Res() res: Response,
  ) {
    const query = new URLSearchParams();
    for (const name of CALLBACK_FIELDS) {
      const value = body?.[name];
      if (typeof value === 'string') query.set(name, value);
    }
    res.redirect(303, `/shop/auth/social/${encodeURIComponent(provider)}/callback?${query}`);
  }
}
