import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type * as Swagger from '@nestjs/swagger';
import type { onSendHookHandler, RouteOptions } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { OpenApiDocument } from './openapi.document';
import { docsPolicy } from './docs-policy';

/** Where the interactive reference is served (under DEBUG_UI only). */
export const DOCS_PATH = '/docs';

const isDocsRoute = (url: string): boolean => url === DOCS_PATH || url.startsWith(`${DOCS_PATH}/`);

/**
 * The policy and hardening headers of every /docs answer. Attached to the /docs routes alone,
 * as they are registered, so no other route pays for it.
 */
function docsHeaders(connectSources: readonly string[]): onSendHookHandler {
  const policies = new Map<string, string>();
  return (_req, reply, payload, done) => {
    const html = typeof payload === 'string' && payload.includes('<html') ? payload : '';
    let policy = policies.get(html);
    if (policy === undefined) {
      policy = docsPolicy(html, connectSources);
      policies.set(html, policy);
    }
    void reply.headers({
      'content-security-policy': policy,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    });
    done(null, payload);
  };
}

function withHook(route: RouteOptions, hook: onSendHookHandler): void {
  const existing = route.onSend;
  route.onSend = existing === undefined ? [hook] : [...[existing].flat(), hook];
}

/**
 * Swagger UI at /docs, from the service's own files (swagger-ui-dist through @fastify/static) and
 * the document built at boot; nothing is fetched from elsewhere. Off unless `config.debugUi`:
 * then /docs is an unknown path (404).
 */
export function setupApiReference(app: NestFastifyApplication): void {
  const config = app.get<AppConfig>(APP_CONFIG);
  if (!config.debugUi) return;
  // Loaded only when served: @nestjs/swagger costs about 60 ms of every boot otherwise.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { SwaggerModule } = require('@nestjs/swagger') as typeof Swagger;
  const connectSources = config.publicBaseUrl ? [new URL(config.publicBaseUrl).origin] : [];
  const hook = docsHeaders(connectSources);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      if (isDocsRoute(route.url)) withHook(route, hook);
    });
  SwaggerModule.setup(DOCS_PATH, app, () => app.get(OpenApiDocument).document, {
    // The document is served at /api/openapi.json whatever DEBUG_UI says.
    raw: false,
    customSiteTitle: `${config.metadata.title}: API reference`,
    swaggerOptions: {
      // The badge would send the document to validator.swagger.io.
      validatorUrl: null,
      // Without the top bar: its logo is an inline <style> the policy would refuse, and its URL
      // box would read other documents.
      layout: 'BaseLayout',
      displayOperationId: false,
      tryItOutEnabled: true,
      // Each action has its own address, /docs#/<mini-app>/run.<slug>, opening its operation.
      deepLinking: true,
    },
  });
}
