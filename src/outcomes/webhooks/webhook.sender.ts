import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_HEADERS } from '../../kit/webhook-signature';
import { networkError } from '../../outbound/http/upstream-answer';
import { ACTION_WEBHOOKS, type ActionWebhooks } from './action-webhooks';
import type { AttemptStop, WebhookDelivery } from './webhook-delivery';
import { WebhookMetrics } from './webhook.metrics';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from './webhooks.config';

/** An attempt that did not get a 2xx: the queue retries it while attempts are left. */
export class WebhookAttemptError extends Error {
  override readonly name = 'WebhookAttemptError';
}

/** A receiver: where a delivery goes, and the signer of its secret. */
interface Receiver {
  url: string;
  signer: Webhook;
}

/**
 * One attempt of a delivery: signs its id, this attempt's timestamp and the body with the
 * `standardwebhooks` library (the Standard Webhooks scheme receivers verify), and POSTs it to
 * WEBHOOK_URL, or to its action's own webhook (`delivery.target`) with that one's secret, within
 * WEBHOOK_TIMEOUT_MS. Plain `fetch`, not ExternalHttp: that client bounds the
 * calls an answer waits on (a circuit that refuses calls at once), while a delivery waits on
 * nothing and has its own retry schedule. Redirects are not followed (a 3xx is a failed attempt):
 * the signed body goes to the configured host only. Logs and metrics name the delivery, never the
 * URL or the secret.
 */
@Injectable()
export class WebhookSender {
  private readonly logger = new Logger('Webhooks');
  /** The service-wide receiver, its key decoded once; none without WEBHOOK_URL. */
  private readonly receiver?: Receiver;
  /** Each action's own receiver, by the action's path. */
  private readonly actionReceivers = new Map<string, Receiver>();

  constructor(
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    private readonly metrics: WebhookMetrics,
    @Optional() @Inject(ACTION_WEBHOOKS) targets?: ActionWebhooks,
  ) {
    if (config.url && config.secret)
      this.receiver = { url: config.url, signer: new Webhook(config.secret) };
    for (const [path, { url, secret }] of targets ?? [])
      this.actionReceivers.set(path, { url, signer: new Webhook(secret) });
  }

  /**
   * Resolves when the receiver answered 2xx; throws WebhookAttemptError otherwise. `stop`: the
   * queue is shutting down, so a failure is not retried, and the request may be cut short.
   */
  async attempt(
    delivery: WebhookDelivery,
    attempt: number,
    maxAttempts: number,
    stop?: AttemptStop,
  ): Promise<void> {
    const failure = await this.send(delivery, stop?.cutoff);
    const position = `attempt ${attempt}/${maxAttempts}`;
    const name = delivery.target ? `${delivery.id} for ${delivery.target}` : delivery.id;
    if (failure === undefined) {
      this.metrics.record(delivery.type, 'delivered');
      this.logger.log(`Webhook ${name} (${delivery.type}) delivered, ${position}`);
      return;
    }
    const stopped = attempt < maxAttempts && stop?.stopping.aborted === true;
    const last = attempt >= maxAttempts || stopped;
    this.metrics.record(delivery.type, last ? 'failed' : 'retried');
    const next = stopped ? 'not retried, shutting down' : last ? 'given up' : 'retrying';
    const line = `Webhook ${name} failed (${failure}), ${position}: ${next}`;
    if (last) this.logger.error(line);
    else this.logger.warn(line);
    throw new WebhookAttemptError(`Webhook ${name}: ${failure}`);
  }

  /** Undefined when the receiver answered 2xx, else why not. */
  private async send(
    { id, body, target }: WebhookDelivery,
    cutoff?: AbortSignal,
  ): Promise<string | undefined> {
    const { timeoutMs } = this.config;
    const receiver = target === undefined ? this.receiver : this.actionReceivers.get(target);
    if (!receiver) return target === undefined ? 'no WEBHOOK_URL' : `no webhook of ${target} set`;
    const { url, signer } = receiver;
    // Whole seconds: the header carries them, and the library signs them.
    const timestamp = new Date(Math.floor(Date.now() / 1000) * 1000);
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(url, {
        method: 'POST',
        body,
        redirect: 'manual',
        signal: cutoff ? AbortSignal.any([timeout, cutoff]) : timeout,
        headers: {
          'content-type': 'application/json',
          [WEBHOOK_HEADERS.id]: id,
          [WEBHOOK_HEADERS.timestamp]: String(timestamp.getTime() / 1000),
          [WEBHOOK_HEADERS.signature]: signer.sign(id, timestamp, body),
        },
      });
      // The answer's body means nothing here; reading it would only hold the attempt open.
      await response.body?.cancel().catch(() => undefined);
      return response.status >= 200 && response.status < 300
        ? undefined
        : `HTTP ${response.status}`;
    } catch (error) {
      if (timeout.aborted) return `no answer within ${timeoutMs} ms`;
      return cutoff?.aborted ? 'abandoned: shutting down' : networkError(error).message;
    }
  }
}
