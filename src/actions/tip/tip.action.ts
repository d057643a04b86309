import type { Env } from '../../config/env';
import { defineChainAction } from '../../kit';
import { loadTipConfig } from './tip.config';

/** What a tip can be, in AVAX: the user picks one, the wallet sends it to TIP_RECIPIENT. */
export const TIP_AMOUNTS = [0.01, 0.05, 0.1] as const;

/**
 * "Tip the project": a `transfer` the platform's client builds and the user's wallet sends, no
 * call to this service. The recipient is fixed by TIP_RECIPIENT (read at boot, checksummed);
 * without it the wallet mini-app publishes no tip.
 */
export function tipAction(env: Env): ReturnType<typeof defineChainAction> | undefined {
  const { recipient } = loadTipConfig(env);
  if (recipient === undefined) return undefined;
  return defineChainAction({
    type: 'transfer',
    label: 'Tip the project',
    description: 'Send a small tip in AVAX to the people who run this service',
    chains: { source: 43113 },
    to: recipient,
    amountConfig: {
      // `type`, the SDK's name since 2.20.11: an `inputType` here is ignored and the radio lost.
      type: 'radio',
      label: 'Tip (AVAX)',
      options: TIP_AMOUNTS.map((amount) => ({ label: `${amount} AVAX`, value: amount })),
      defaultValue: TIP_AMOUNTS[0],
      required: true,
    },
  });
}
