import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AppError } from '../../common/errors/app-error';
import { FormAnswer } from '../../web/answers/answers';
import { translations } from '../../web/i18n/translations';
import { SetLanguageDto } from './dto/set-language.dto';

/** The layout's language switch: the session's choice wins over the store's language (src/web/i18n). */
@ApiTags('catalog')
@Controller('shop/language')
export class LanguageController {
  @Post('set')
  @HttpCode(200)
  @ApiOkResponse({ description: '{ success: true, language }; a browser form is redirected back with a flash' })
  set(@Body() body: SetLanguageDto, @Req() req: Request): FormAnswer {
    const shipped = translations();
    const language = body.language.toLowerCase();
    if (!shipped.has(language)) {
      throw AppError.invalid(
        { language: [`must be one of ${shipped.languages.join(', ')}`] },
        `The shop is not translated into ${body.language}.`,
      );
    }
    req.session.language = language;
    // The flash speaks the language just chosen, not the one this request's page was in.
    return new FormAnswer(shipped.t(language, 'layout.language.changed'), { back: '/' }, () => ({
      success: true,
      language,
    }));
  }
}
