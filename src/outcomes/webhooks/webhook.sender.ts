import { Inject, Injectable, Logger } from '@nestjs/common';
import { signWebhook, WEBHOOK_HEADERS } from '../../kit/webhook-signature';
import { networkError } from '../../outbound/http/upstream-answer';
import type { WebhookDelivery } from './webhook-delivery';
import { WebhookMetrics } from './webhook.metrics';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from './webhooks.config';

/** An attempt that did not get a 2xx: the queue retries it while attempts are left. */
export class WebhookAttemptError extends Error {
  override readonly name = 'WebhookAttemptError';
}

/**
 * One attempt of a delivery: signs its id, this attempt's timestamp and the body, and POSTs it to
 * WEBHOOK_URL within WEBHOOK_TIMEOUT_MS. Plain `fetch`, not ExternalHttp: that client bounds the
 * calls an answer waits on (a circuit that refuses calls at once), while a delivery waits on
 * nothing and has its own retry schedule. Redirects are not followed (a 3xx is a failed attempt):
 * the signed body goes to the configured host only. Logs and metrics name the delivery, never the
 * URL or the secret.
 */
@Injectable()
export class WebhookSender {
  private readonly logger = new Logger('Webhooks');

  constructor(
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    private readonly metrics: WebhookMetrics,
  ) {}

  /** Resolves when the receiver answered 2xx; throws WebhookAttemptError otherwise. */
  async attempt(delivery: WebhookDelivery, attempt: number, maxAttempts: number): Promise<void> {
    const failure = await this.send(delivery);
    const position = `attempt ${attempt}/${maxAttempts}`;
    if (failure === undefined) {
      this.metrics.record(delivery.type, 'delivered');
      this.logger.log(`Webhook ${delivery.id} (${delivery.type}) delivered, ${position}`);
      return;
    }
    const last = attempt >= maxAttempts;
    this.metrics.record(delivery.type, last ? 'failed' : 'retried');
    if (last)
      this.logger.error(`Webhook ${delivery.id} failed (${failure}), ${position}: given up`);
    else this.logger.warn(`Webhook ${delivery.id} failed (${failure}), ${position}: retrying`);
    throw new WebhookAttemptError(`Webhook ${delivery.id}: ${failure}`);
  }

  /** Undefined when the receiver answered 2xx, else why not. */
  private async send({ id, body }: WebhookDelivery): Promise<string | undefined> {
    const { url, secret, timeoutMs } = this.config;
    if (!url || !secret) return 'no WEBHOOK_URL';
    const timestamp = Math.floor(Date.now() / 1000);
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(url, {
        method: 'POST',
        body,
        redirect: 'manual',
        signal: timeout,
        headers: {
          'content-type': 'application/json',
          [WEBHOOK_HEADERS.id]: id,
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.signature]: signWebhook(secret, id, timestamp, body),
        },
      });
      // The answer's body means nothing here; reading it would only hold the attempt open.
      await response.body?.cancel().catch(() => undefined);
      return response.status >= 200 && response.status < 300
        ? undefined
        : `HTTP ${response.status}`;
    } catch (error) {
      return timeout.aborted ? `no answer within ${timeoutMs} ms` : networkError(error).message;
    }
  }
}
