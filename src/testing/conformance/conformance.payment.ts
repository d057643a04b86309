import { decodePaymentRequiredHeader } from '@x402/core/http';
import { x402Network } from '../../payments/action-price';
import type { ActionUnderTest } from './conformance.types';
import { type Answer, header, quote } from './conformance.request';
import { errorShapeProblems } from './conformance.shapes';

/**
 * A paid action's answer to a call without payment (docs/agents.md): 402 in its error shape,
 * `PAYMENT-REQUIRED` holding x402 v2 terms on its source chain (scheme `exact`, an asset, a
 * positive amount, a payee), and no settlement.
 */
export function paymentRequiredProblems(
  target: ActionUnderTest,
  answer: Answer,
  what: string,
): string[] {
  if (answer.status !== 402) return [`${what} answered ${quote(answer)}, not 402 (it is paid)`];
  const problems = errorShapeProblems(answer, target.dataMode).map((p) => `${what}: ${p}`);
  const text = header(answer, 'payment-required');
  if (!text) return [...problems, `${what}: the 402 has no PAYMENT-REQUIRED header`];
  let required: ReturnType<typeof decodePaymentRequiredHeader>;
  try {
    required = decodePaymentRequiredHeader(text);
  } catch {
    return [...problems, `${what}: PAYMENT-REQUIRED is not base64 JSON`];
  }
  const network = x402Network(target.declaration.chains.source);
  const terms = required.accepts?.[0];
  if (required.x402Version !== 2) problems.push(`${what}: x402Version is not 2`);
  if (!terms) return [...problems, `${what}: PAYMENT-REQUIRED accepts no payment`];
  if (terms.scheme !== 'exact') problems.push(`${what}: scheme ${terms.scheme}, not exact`);
  if (terms.network !== network) problems.push(`${what}: network ${terms.network}, not ${network}`);
  if (!/^[1-9]\d*$/.test(terms.amount))
    problems.push(`${what}: amount ${terms.amount} is not positive`);
  if (!/^0x[0-9a-fA-F]{40}$/.test(terms.payTo)) problems.push(`${what}: payTo is no address`);
  if (!/^0x[0-9a-fA-F]{40}$/.test(terms.asset)) problems.push(`${what}: asset is no address`);
  if (header(answer, 'payment-response')) problems.push(`${what}: an unpaid call was settled`);
  return problems;
}
