import type { IncomingMessage } from 'node:http';
import type { ThrottlerRecord } from './memory-throttler.storage';

/**
 * The counts the rate-limit guard took before a request's body was read (its `preParsing` hook),
 * kept on Node's request for its canActivate: the IP's, and the user's with the user it counted.
 */
const IP = Symbol('ipCountedEarly');
const USER = Symbol('userCountedEarly');
type Counted = IncomingMessage & {
  [IP]?: ThrottlerRecord;
  [USER]?: { user: string; record: ThrottlerRecord };
};

export const earlyCounts = {
  keepIp(req: IncomingMessage, record: ThrottlerRecord): void {
    (req as Counted)[IP] = record;
  },
  ip(req: IncomingMessage): ThrottlerRecord | undefined {
    return (req as Counted)[IP];
  },
  keepUser(req: IncomingMessage, user: string, record: ThrottlerRecord): void {
    (req as Counted)[USER] = { user, record };
  },
  /** The user's count, if it was taken for this same user. */
  user(req: IncomingMessage, user: string): ThrottlerRecord | undefined {
    const early = (req as Counted)[USER];
    return early?.user === user ? early.record : undefined;
  },
};

/** Whether the IP limit refused this request before its body was read: the body is left unparsed. */
export const refusedBeforeBody = (req: IncomingMessage): boolean =>
  earlyCounts.ip(req)?.isBlocked === true;
