import { HttpStatus } from '@nestjs/common';
import { ActionException } from '../contract/action.exception';
import type { AppConfig } from './app.config';

/** What a request says of where it was sent: Fastify's `protocol` and `host`. */
export interface RequestOrigin {
  protocol: string;
  host: string;
}

/**
 * Whether the service may build permanent URLs from a request's Host: in development and tests,
 * or when ALLOWED_HOSTS bounds what a Host may say. In production with neither PUBLIC_BASE_URL nor
 * ALLOWED_HOSTS, any client could have a token URI point at a host of its choosing.
 */
export const mayTrustRequestHost = (config: AppConfig): boolean =>
  config.nodeEnv !== 'production' || config.allowedHosts.length > 0;

/**
 * The base of URLs written where they cannot be changed afterwards (token URIs on chain):
 * PUBLIC_BASE_URL, else the request's host when mayTrustRequestHost; otherwise refused (503, the
 * service is not configured for it) rather than write a URL a client chose.
 */
export function permanentBaseUrl(config: AppConfig, req: RequestOrigin): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  if (!mayTrustRequestHost(config)) {
    throw new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'Not configured', {
      message: 'This action is not available yet, please try again later',
      code: 'SERVICE_UNAVAILABLE',
      details: 'Set PUBLIC_BASE_URL (or ALLOWED_HOSTS) to write permanent URLs in production',
    });
  }
  return `${req.protocol}://${req.host}`;
}
