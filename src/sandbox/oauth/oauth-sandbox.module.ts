import { Module } from '@nestjs/common';
import { OAuthApiController } from './oauth-api.controller';
import { OAuthAuthorizeController } from './oauth-authorize.controller';
import { OAuthControlController } from './oauth-control.controller';
import { OAuthSandboxState } from './oauth-sandbox.state';

/** Sandbox Google, Facebook and Apple for social login, under /_sandbox/oauth/{provider}. */
@Module({
  controllers: [OAuthAuthorizeController, OAuthApiController, OAuthControlController],
  providers: [OAuthSandboxState],
})
export class OAuthSandboxModule {}
