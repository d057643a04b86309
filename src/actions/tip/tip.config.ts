import { IsOptional, ValidateBy } from '../../config/validator-subset';
import { type Address, getAddress, isAddress } from 'viem';
import { type Env, readEnv } from '../../config/env';
import { registerConfigCheck } from '../../config/configuration.check';

/** EIP-55 mixed case, exactly: a typo in one character is caught by the checksum, not paid to. */
const IsChecksummedAddress = (): PropertyDecorator =>
  ValidateBy({
    name: 'isChecksummedAddress',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && isAddress(value) && getAddress(value) === value,
      defaultMessage: (args) =>
        typeof args?.value === 'string' && isAddress(args.value, { strict: false })
          ? `must be EIP-55 checksummed: ${getAddress(args.value)}`
          : 'must be an EVM address (0x and 40 hex digits, EIP-55 checksummed)',
    },
  });

class TipEnv {
  /**
   * Who receives the wallet mini-app's "Tip the project" transfer (EIP-55 checksummed); unset:
   * the action is not published.
   */
  @IsOptional()
  @IsChecksummedAddress()
  TIP_RECIPIENT?: string;
}

export interface TipConfig {
  /** Undefined: no tip action. */
  recipient?: Address;
}

export function loadTipConfig(env: Env): TipConfig {
  const vars = readEnv(TipEnv, env, 'tip configuration');
  return { recipient: vars.TIP_RECIPIENT as Address | undefined };
}

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadTipConfig);
