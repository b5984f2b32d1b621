import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { json, NextFunction, Request, RequestHandler, Response, urlencoded } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { PRODUCT_MEDIA_PATH } from '../commerce/products/product-image-files';
import { ShippingMethodRegistry } from '../commerce/shipping/shipping-method.registry';
import { SITE_ORIGIN_SETTING } from '../common/back-url';
import { DependencyOutages } from '../common/dependency-outages';
import { sendError } from '../common/errors/error-response';
import { createValidationPipe } from '../common/validation';
import { AppConfig } from '../config/app-config';
import { SettingsService } from '../config/settings.service';
import { optionalScriptOrigin } from './cookie-notice';
import { PUBLIC_DIR, VIEWS_DIR } from './paths';
import { renderLocals } from './render-locals';
import { sessionMiddleware } from './sessions';
import { shopPageLocals } from './shop-page-locals';
import { createViewEngine } from './view-engine';
import { commonErrors } from '../common/errors/common-errors';

/** Express-level set-up shared by `main.ts` and the tests; call before `app.init()`. */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  app.set(SITE_ORIGIN_SETTING, new URL(config.baseUrl).origin);
  const widgetOrigins = checkoutWidgetOrigins(app);
  let settings: SettingsService | undefined;
  const optionalScript = optionalScriptOrigin(() => (settings ??= app.get<SettingsService>(SettingsService)));
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          // The optional script's origin is allowed always; the layout names the script only once a visitor allows it.
          scriptSrc: ["'self'", () => [widgetOrigins(), optionalScript()].filter(Boolean).join(' ')],
          // A carrier's pickup-point widget may open its picker in a frame or fetch its points itself.
          frameSrc: ["'self'", widgetOrigins],
          connectSrc: ["'self'", widgetOrigins],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          upgradeInsecureRequests: config.baseUrl.startsWith('https:') ? [] : null,
        },
      },
      // Form posts answer "back" by the Referer (docs/http-contract.md); helmet's default no-referrer would send every
      // refused form to the home page. Same-origin keeps order numbers in our URLs from leaking elsewhere.
      referrerPolicy: { policy: 'same-origin' },
    }),
  );
  app.useStaticAssets(PUBLIC_DIR, { prefix: '/public/', maxAge: config.production ? '7d' : 0 });
  // Product pictures are named by their content (product-image-files.ts): a name never changes what it shows.
  app.useStaticAssets(join(config.mediaDir, 'products'), {
    prefix: `${PRODUCT_MEDIA_PATH}/`,
    maxAge: '365d',
    immutable: true,
    index: false,
    dotfiles: 'deny',
  });
  app.setBaseViewsDir(VIEWS_DIR);
  app.engine('hbs', createViewEngine(VIEWS_DIR));
  app.setViewEngine('hbs');
  for (const parser of bodyParsers()) app.use(parser);
  for (const handler of sessionMiddleware(app, config)) app.use(handler);
  app.use(shopPageLocals(app));
  app.use(renderLocals(app, config.cpTrigger));
  app.useGlobalPipes(createValidationPipe());
  if (config.apiDocs) serveApiDocs(app);
}

/** The OpenAPI document of the JSON endpoints at /api-docs (JSON at /api-docs-json): only with API_DOCS=on. */
function serveApiDocs(app: NestExpressApplication): void {
  const openApi = new DocumentBuilder()
    .setTitle('Storefront service')
    .setDescription('JSON endpoints of the storefront. Errors: { success: false, error: { code, message, fields? } }.')
    .setVersion('2.0.0')
    .build();
  SwaggerModule.setup('api-docs', app, () => SwaggerModule.createDocument(app, openApi));
}

/**
 * The origins of the checkout widgets' own libraries (a carrier's configured widget URL), read per request so
 * a URL changed in the CP applies without a restart. The registry is looked up on first use: configureApp runs
 * before the modules initialise.
 */
function checkoutWidgetOrigins(app: NestExpressApplication): () => string {
  let registry: ShippingMethodRegistry | undefined;
  return () => {
    registry ??= app.get<ShippingMethodRegistry>(ShippingMethodRegistry);
    return registry.widgetOrigins().join(' ');
  };
}

/** The flow webhook takes any JSON up to 1 MiB, whatever content type its caller sends. */
const FLOW_WEBHOOK_PATH = /^\/core\/flow\/webhook\//i;

/**
 * JSON and form bodies (forms nest fields: `billingAddress[city]`). Nest would hand a JSON syntax error on
 * with the parser's wording; the shopper's script gets ours. A body of any other type (or none, or without a
 * Content-Type) is read as empty, so the route answers what it answers to missing fields (Express 5 would leave
 * `req.body` undefined, and code reading a field of it would fail with a 500).
 */
function bodyParsers(): RequestHandler[] {
  const flowWebhookJson = json({ limit: '1mb', type: (req) => FLOW_WEBHOOK_PATH.test(req.url ?? '') });
  const parsers = [flowWebhookJson, json(), urlencoded({ extended: true })].map(
    (parser): RequestHandler =>
      (req, res, next) =>
        parser(req, res, (error?: unknown) => next(bodyError(error))),
  );
  const emptyUnlessParsed: RequestHandler = (req, _res, next) => {
    req.body ??= {};
    next();
  };
  return [...parsers, emptyUnlessParsed];
}

/** A body parser's refusal in our words; anything else passes on as it is. */
function bodyError(error: unknown): unknown {
  const { type, limit } = (error ?? {}) as { type?: string; limit?: number };
  if (type === 'entity.parse.failed') return commonErrors.invalid_json();
  if (type === 'entity.too.large') {
    return commonErrors.payload_too_large({ limit });
  }
  return error;
}

/** Errors raised by Express middleware before Nest's router (malformed JSON, oversized bodies). */
export function expressErrorHandler(config: AppConfig, outages: DependencyOutages) {
  return (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    sendError(error, req, res, config.cpTrigger, outages);
  };
}
