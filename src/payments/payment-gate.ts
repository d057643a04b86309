import { Inject, Injectable, Logger } from '@nestjs/common';
import type {
  FacilitatorClient,
  HTTPRequestContext,
  HTTPResponseInstructions,
  x402HTTPResourceServer,
} from '@x402/core/server';
import type { PaymentPayload } from '@x402/core/types';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ActionException } from '../contract/action.exception';
import type { ActionDeclaration, ActionPrice } from '../contract/action.types';
import type { ActionCall } from '../kit/action-call';
import { ActionRegistry } from '../kit/action.registry';
import { ActionCallAdapter, PaymentTerms } from './payment-terms';
import { withoutUrls } from './facilitator-clients';
import { limitLog } from '../telemetry/logging/log-limiter';
import { logText } from '../telemetry/logging/log-text';
import { PaymentLedger, type PaymentTicket } from './payment-ledger';
import { PaymentMetrics } from './payment-metrics';
import { facilitatorFailure, notAPayment, paymentException } from './payment-refusals';
import { x402 } from './x402-modules';

/** The facilitator payments are verified and settled with; null when no action is paid. */
export const FACILITATOR = Symbol('FACILITATOR');

/** What the gate lets through: a paid call to run, or a retry answered with what it bought. */
export type Admission = { ticket: PaymentTicket } | { replay: unknown };

const paid = (d: ActionDeclaration): d is ActionDeclaration & { price: ActionPrice } =>
  d.price !== undefined;

/**
 * x402 (v2) in front of every paid action, through @x402/core's HTTP resource server: a call
 * without a payment is answered 402 with `PAYMENT-REQUIRED`; one with `PAYMENT-SIGNATURE` is
 * verified by the facilitator and, once the action answered with success, settled, its answer
 * carrying `PAYMENT-RESPONSE`. A payment is served once (PaymentLedger); a refused action
 * settles nothing. The facilitator is asked what it supports on the first paid call, not at boot.
 */
@Injectable()
export class PaymentGate {
  private readonly logger = new Logger('Payments');
  private readonly http?: x402HTTPResourceServer;
  private initialized?: Promise<void>;

  constructor(
    registry: ActionRegistry,
    private readonly terms: PaymentTerms,
    private readonly ledger: PaymentLedger,
    private readonly metrics: PaymentMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(FACILITATOR) facilitator: FacilitatorClient | null,
  ) {
    const declarations = registry.declarations().filter(paid);
    if (declarations.length === 0 || !facilitator) return;
    for (const declaration of declarations) {
      terms.asset(declaration);
      metrics.declare(declaration.path);
    }
    const { server: x402Server, evmServer, identifier } = x402();
    const server = new x402Server.x402ResourceServer(facilitator)
      .register('eip155:*', new evmServer.ExactEvmScheme())
      .registerExtension(identifier.paymentIdentifierResourceServerExtension);
    this.http = new x402Server.x402HTTPResourceServer(server, terms.routes(declarations));
  }

  /** Before the handler: the params (400 first), then the payment, verified and claimed. */
  async admit(call: ActionCall, reply: FastifyReply): Promise<Admission> {
    const path = call.declaration.path;
    call.params();
    const header = call.req.headers['payment-signature'];
    const payload = typeof header === 'string' ? this.decode(path, header) : undefined;
    if (payload) {
      const replay = await this.ledger.replayOf(call, payload, header as string, reply);
      if (replay) return replay;
      if (await this.ledger.used(payload)) {
        await this.refuse(call, reply, 'reused', 'payment_already_used');
      }
    }
    const context = this.context(call);
    const result = await this.facilitated(path, async () => {
      await this.ready();
      return this.http!.processHTTPRequest(context);
    });
    if (result.type === 'payment-error') {
      this.answer(reply, result.response);
      const error = x402().http.decodePaymentRequiredHeader(
        result.response.headers['PAYMENT-REQUIRED'],
      ).error;
      this.metrics.record(path, payload ? 'invalid' : 'required');
      throw paymentException(
        result.response.status,
        payload ? 'PAYMENT_INVALID' : 'PAYMENT_REQUIRED',
        error,
      );
    }
    if (result.type !== 'payment-verified')
      throw new Error(`Action ${path} is paid but not priced`);
    const ticket = await this.ledger.claim(call, result, header as string, context);
    if ('reused' in ticket) await this.refuse(call, reply, 'reused', 'payment_already_used');
    return { ticket: ticket as PaymentTicket };
  }

  /** After the handler's success: settles, or answers 402 and delivers nothing. */
  async settle(
    call: ActionCall,
    reply: FastifyReply,
    ticket: PaymentTicket,
    result: unknown,
  ): Promise<void> {
    const path = call.declaration.path;
    const settled = await this.facilitated(
      path,
      () =>
        this.http!.processSettlement(ticket.payload, ticket.requirements, ticket.extensions, {
          request: ticket.context,
        }),
      () => this.ledger.release(ticket),
    );
    if (!settled.success) {
      await this.ledger.release(ticket);
      this.metrics.record(path, 'settle_failed');
      this.answer(reply, settled.response);
      throw paymentException(
        402,
        'PAYMENT_FAILED',
        settled.errorReason,
        'The payment could not be settled',
      );
    }
    for (const [name, value] of Object.entries(settled.headers)) void reply.header(name, value);
    void reply.header('cache-control', 'private, no-store');
    this.metrics.record(path, 'settled');
    await this.ledger.settled(
      ticket,
      settled.transaction,
      settled.headers['PAYMENT-RESPONSE'],
      result,
    );
  }

  /** The handler refused (or failed): nothing is settled, the payment may be used again. */
  async refused(call: ActionCall, ticket: PaymentTicket): Promise<void> {
    this.metrics.record(call.declaration.path, 'not_charged');
    await this.ledger.release(ticket);
  }

  /** A payment the service will not take again, answered 402 with the terms and the reason. */
  private async refuse(
    call: ActionCall,
    reply: FastifyReply,
    outcome: 'reused',
    reason: string,
  ): Promise<never> {
    const unpaid = await this.facilitated(call.declaration.path, async () => {
      await this.ready();
      return this.http!.processHTTPRequest({ ...this.context(call), paymentHeader: undefined });
    });
    if (unpaid.type === 'payment-error') {
      const required = x402().http.decodePaymentRequiredHeader(
        unpaid.response.headers['PAYMENT-REQUIRED'],
      );
      unpaid.response.headers['PAYMENT-REQUIRED'] = x402().http.encodePaymentRequiredHeader({
        ...required,
        error: reason,
      });
      this.answer(reply, unpaid.response);
    }
    this.metrics.record(call.declaration.path, outcome);
    throw paymentException(
      402,
      'PAYMENT_REUSED',
      reason,
      'This payment was used already: sign a new one',
    );
  }

  private decode(path: string, header: string): PaymentPayload {
    try {
      const payload = x402().http.decodePaymentSignatureHeader(header);
      if (typeof payload === 'object' && payload !== null) return payload;
    } catch {
      // Answered below, as any header that is no payment.
    }
    this.metrics.record(path, 'invalid');
    throw notAPayment();
  }

  private context(call: ActionCall): HTTPRequestContext {
    const { req, declaration } = call;
    const base = this.config.publicBaseUrl ?? `${req.protocol}://${req.host}`;
    const adapter = new ActionCallAdapter(call, `${base}${declaration.path}`);
    const header = adapter.getHeader('payment-signature');
    return { adapter, path: declaration.path, method: 'POST', paymentHeader: header };
  }

  /** x402's headers of an answer (PAYMENT-REQUIRED, Cache-Control) on the service's reply. */
  private answer(reply: FastifyReply, response: HTTPResponseInstructions): void {
    for (const [name, value] of Object.entries(response.headers)) {
      if (name.toLowerCase() !== 'content-type') void reply.header(name, value);
    }
  }

  /** Asks the facilitator what it supports once, again after a failure. */
  private ready(): Promise<void> {
    this.initialized ??= this.http!.initialize().catch((error: unknown) => {
      this.initialized = undefined;
      throw error;
    });
    return this.initialized;
  }

  /** A facilitator that fails or is out is a 502; nothing is charged. */
  private async facilitated<T>(
    path: string,
    call: () => Promise<T>,
    cleanup?: () => Promise<void>,
  ): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ActionException) throw error;
      await cleanup?.();
      this.metrics.record(path, 'unavailable');
      if (!(error instanceof x402().server.FacilitatorResponseError)) {
        // Logged once a minute at most, any URL in it redacted (a node's may carry a key).
        const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        limitLog(this.logger).error(
          `payment ${path}`,
          `Payment of ${path} failed: ${logText(withoutUrls(text))}`,
        );
      }
      throw facilitatorFailure();
    }
  }
}
