import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { backUrl } from '../../common/back-url';
import { AppError } from '../../common/errors/app-error';
import { addFlash, wantsHtml } from '../../common/session-data';
import { translations } from '../../web/i18n/translations';
import { SetLanguageDto } from './dto/set-language.dto';

/** The layout's language switch: the session's choice wins over the store's language (src/web/i18n). */
@ApiTags('catalog')
@Controller('shop/language')
export class LanguageController {
  @Post('set')
  @HttpCode(200)
  @ApiOkResponse({ description: '{ success: true, language }; a browser form is redirected back with a flash' })
  set(@Body() body: SetLanguageDto, @Req() req: Request, @Res() res: Response): void {
    const shipped = translations();
    const language = body.language.toLowerCase();
    if (!shipped.has(language)) {
      throw AppError.invalid(
        { language: [`must be one of ${shipped.languages.join(', ')}`] },
        `The shop is not translated into ${body.language}.`,
      );
    }
    req.session.language = language;
    if (!wantsHtml(req)) {
      res.json({ success: true, language });
      return;
    }
    addFlash(req, 'success', shipped.t(language, 'layout.language.changed'));
    res.redirect(303, backUrl(req, '/'));
  }
}
