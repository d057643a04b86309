import { HttpStatus } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';

/** Why a client's sRFC-31 accept headers rule a blink out: the status and the spec's `{message}`. */
export interface NotAcceptable {
  status: number;
  message: string;
}

const VERSION = /^(\d+)\.(\d+)(?:\.\d+)?$/;

const headerText = (value: string | string[] | undefined): string | undefined =>
  (Array.isArray(value) ? value.join(',') : value)?.trim() || undefined;

/** major.minor compared as Dialect's client compares them (the patch is ignored). */
function newer(served: string, accepted: RegExpExecArray): boolean {
  const [major, minor] = served.split('.').map(Number);
  const [acceptedMajor, acceptedMinor] = [Number(accepted[1]), Number(accepted[2])];
  return major !== acceptedMajor ? major > acceptedMajor : minor > acceptedMinor;
}

/**
 * The client's accept headers (sRFC-31) against what the blink serves. `X-Accept-Action-Version`
 * is the newest spec version the client reads: a blink of a newer one would be shown wrong, so
 * it is refused with the version served (the answers have one shape; none is downgraded).
 * `X-Accept-Blockchain-Ids` lists the CAIP-2 chains its wallet signs on: the blink's transactions
 * run on its source chain (the first of X-Blockchain-Ids), which must be among them. A header
 * left out accepts anything, as a client that predates sRFC-31 does.
 */
export function notAcceptable(
  headers: IncomingHttpHeaders,
  version: string,
  blockchainIds: readonly string[],
): NotAcceptable | undefined {
  const acceptedVersion = headerText(headers['x-accept-action-version']);
  if (acceptedVersion !== undefined) {
    const parsed = VERSION.exec(acceptedVersion);
    if (!parsed) {
      return {
        status: HttpStatus.BAD_REQUEST,
        message: `X-Accept-Action-Version must be a spec version such as ${version}`,
      };
    }
    if (newer(version, parsed)) {
      return {
        status: HttpStatus.NOT_ACCEPTABLE,
        message: `This blink follows Actions spec ${version} (X-Action-Version); the client accepts up to ${acceptedVersion.slice(0, 20)}`,
      };
    }
  }
  const acceptedChains = headerText(headers['x-accept-blockchain-ids']);
  const [source] = blockchainIds;
  if (acceptedChains === undefined || source === undefined) return undefined;
  const accepted = acceptedChains.split(',').map((id) => id.trim());
  if (accepted.includes(source)) return undefined;
  return {
    status: HttpStatus.NOT_ACCEPTABLE,
    message: `This blink's transactions run on ${source} (X-Blockchain-Ids), which X-Accept-Blockchain-Ids does not list`,
  };
}
