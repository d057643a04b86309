import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { HTTPProcessResult, HTTPRequestContext } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { ActionException } from '../contract/action.exception';
import { jsonSafe } from '../contract/json-safe';
import type { ActionCall } from '../kit/action-call';
import { limitLog } from '../telemetry/logging/log-limiter';
import { PaymentMetrics } from './payment-metrics';
import { conflict, type IdRecord } from './payment-refusals';
import { PAYMENT_RECORDS, type PaymentRecords } from './payment-records';
import { PAYMENTS_CONFIG, type PaymentsConfig } from './payments.config';
import { x402 } from './x402-modules';

/** The largest answer kept for a payment identifier's retries (JSON text). */
export const MAX_KEPT_ANSWER_BYTES = 64 * 1024;

/** A verified payment on its way: what settling or releasing it needs. */
export interface PaymentTicket {
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  extensions?: Record<string, unknown>;
  context: HTTPRequestContext;
  nonceKey: string;
  nonceTtlMs: number;
  /** The payment identifier's record, when the payment carries one. */
  idKey?: string;
  hash: string;
}

type Verified = Extract<HTTPProcessResult, { type: 'payment-verified' }>;

/** An EIP-3009 payload's authorization, the part a nonce is read from. */
interface Authorization {
  from?: unknown;
  nonce?: unknown;
  validBefore?: unknown;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Each payment served once. Its nonce (`nonce:<network>:<asset>:<payer>:<nonce>`) is claimed
 * after verification and before the action runs, kept once settled until its authorization
 * expires (X402_RECORD_TTL_SECONDS at most; the chain refuses a used nonce anyway), and released
 * when nothing was settled. A payment identifier (x402's `payment-identifier` extension) is
 * idempotent: a retry with the same payment, byte for byte, is answered what it bought without a
 * second charge; the identifier with another payment, or while its call runs, is a 409.
 */
@Injectable()
export class PaymentLedger {
  private readonly logger = new Logger('Payments');

  constructor(
    @Inject(PAYMENT_RECORDS) private readonly records: PaymentRecords,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
    private readonly metrics: PaymentMetrics,
  ) {}

  /** A retry of a paid call with its identifier: its answer again, or a 409. */
  async replayOf(
    call: ActionCall,
    payload: PaymentPayload,
    header: string,
    reply: FastifyReply,
  ): Promise<{ replay: unknown } | undefined> {
    const path = call.declaration.path;
    const id = this.identifier(path, payload);
    if (id === undefined) return undefined;
    const text = await this.records.get(`id:${id}`);
    if (text === undefined) return undefined;
    const record = JSON.parse(text) as IdRecord;
    if (record.state === 'done' && record.hash === sha256(header) && record.path === path) {
      if (record.result !== undefined && record.paymentResponse !== undefined) {
        void reply.header('PAYMENT-RESPONSE', record.paymentResponse);
        void reply.header('cache-control', 'private, no-store');
        this.metrics.record(path, 'replayed');
        const kept = record.result as { metadata?: Record<string, unknown> };
        return { replay: { ...kept, metadata: { ...kept.metadata, paymentReplayed: true } } };
      }
    }
    this.metrics.record(path, 'conflict');
    throw conflict(record, sha256(header), path);
  }

  /** Whether the payment's nonce is claimed or settled: refused before the facilitator is asked. */
  async used(payload: PaymentPayload): Promise<boolean> {
    return (await this.records.get(nonceKey(payload))) !== undefined;
  }

  /** Claims a verified payment's nonce (and identifier): `reused` when another call holds it. */
  async claim(
    call: ActionCall,
    verified: Verified,
    header: string,
    context: HTTPRequestContext,
  ): Promise<PaymentTicket | { reused: true }> {
    const { paymentPayload: payload, paymentRequirements: requirements } = verified;
    const key = nonceKey(payload);
    const authorization = (payload.payload as { authorization?: Authorization }).authorization;
    const expiresMs = Number(authorization?.validBefore) * 1_000 - Date.now();
    const nonceTtlMs = Math.max(
      1_000,
      Math.min(Number.isFinite(expiresMs) ? expiresMs + 60_000 : Infinity, this.config.recordTtlMs),
    );
    if (!(await this.records.claim(key, 'pending', nonceTtlMs))) return { reused: true };
    const hash = sha256(header);
    const path = call.declaration.path;
    const id = this.identifier(path, payload);
    const ticket: PaymentTicket = {
      payload,
      requirements,
      extensions: verified.declaredExtensions,
      context,
      nonceKey: key,
      nonceTtlMs,
      hash,
      ...(id !== undefined && { idKey: `id:${id}` }),
    };
    if (ticket.idKey) {
      const record: IdRecord = { state: 'pending', hash, path };
      const claimed = await this.records
        .claim(ticket.idKey, JSON.stringify(record), this.config.recordTtlMs)
        .catch(async (error: unknown) => {
          await this.records.release(key);
          throw error;
        });
      if (!claimed) {
        await this.records.release(key);
        this.metrics.record(path, 'conflict');
        const held = await this.records.get(ticket.idKey);
        throw conflict(held ? (JSON.parse(held) as IdRecord) : record, '', path);
      }
    }
    return ticket;
  }

  /** Keeps a settled payment's nonce, and what its identifier bought. */
  async settled(
    ticket: PaymentTicket,
    transaction: string,
    paymentResponse: string | undefined,
    result: unknown,
  ): Promise<void> {
    try {
      await this.records.put(ticket.nonceKey, `settled:${transaction}`, ticket.nonceTtlMs);
      if (!ticket.idKey) return;
      const kept = jsonSafe(result);
      const fits = JSON.stringify(kept ?? null).length <= MAX_KEPT_ANSWER_BYTES;
      const record: IdRecord = {
        state: 'done',
        hash: ticket.hash,
        path: ticket.context.path,
        ...(fits && { result: kept, paymentResponse }),
      };
      await this.records.put(ticket.idKey, JSON.stringify(record), this.config.recordTtlMs);
    } catch {
      // Paid and answered: the answer goes out. The chain refuses the nonce from now on.
      limitLog(this.logger).warn('records', 'A settled payment could not be recorded');
    }
  }

  /** Frees a payment nothing was settled for: it may be sent again. */
  async release(ticket: PaymentTicket): Promise<void> {
    await Promise.all(
      [ticket.nonceKey, ticket.idKey]
        .filter((key): key is string => key !== undefined)
        .map((key) => this.records.release(key).catch(() => undefined)),
    );
  }

  /** The payment identifier a payload carries; a malformed one is a 400. */
  private identifier(path: string, payload: PaymentPayload): string | undefined {
    // A client echoes the extension's declaration as it is when it gives no id: no identifier.
    const echoed = payload.extensions?.[x402().identifier.PAYMENT_IDENTIFIER] as {
      info?: { id?: unknown };
    };
    if (echoed?.info?.id === undefined) return undefined;
    const { id, validation } = x402().identifier.extractAndValidatePaymentIdentifier(payload);
    if (validation.valid && id) return id;
    this.metrics.record(path, 'invalid');
    throw new ActionException(HttpStatus.BAD_REQUEST, 'Invalid payment identifier', {
      message: 'The payment-identifier extension needs an id of 16 to 128 letters, digits, - and _',
      code: 'PAYMENT_INVALID',
      data: { code: 'PAYMENT_INVALID' },
    });
  }
}

/** The record of an EIP-3009 payment's nonce; another payload's, by its signature. */
function nonceKey(payload: PaymentPayload): string {
  const { network, asset } = payload.accepted;
  const inner = payload.payload as { authorization?: Authorization; signature?: unknown };
  const { from, nonce } = inner.authorization ?? {};
  const id =
    typeof from === 'string' && typeof nonce === 'string'
      ? `${from}:${nonce}`
      : `sig:${sha256(String(inner.signature))}`;
  return `nonce:${network}:${asset}:${id}`.toLowerCase();
}
