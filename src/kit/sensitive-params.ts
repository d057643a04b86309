import type { ActionDeclaration, ActionParameter, ParamSpec } from '../contract/action.types';
import { getDeclaredParams } from './action-param.decorator';

/**
 * `sensitive: true` and `queryParam: false`: the platform sends such a value in the body only,
 * so a value in the query string did not come from it and is never read.
 */
export const isBodyOnly = (spec: ParamSpec): boolean =>
  spec.sensitive === true || spec.queryParam === false;

/** An `address` that defaults to `'sender'`: the acting user's own address, per request. */
export const isSenderDefault = (spec: ParamSpec): boolean =>
  spec.type === 'address' && spec.value === 'sender';

const REDACTED = '[redacted]';

/**
 * The request target as a log may show it: the values of the action's sensitive parameters in
 * its query (a client sending them there anyway) replaced, so no secret reaches a log line.
 */
export function loggableTarget(url: string, declaration: ActionDeclaration | undefined): string {
  const at = url.indexOf('?');
  if (at < 0 || !declaration) return url;
  const sensitive = new Set(
    getDeclaredParams(declaration.params)
      .filter((param: ActionParameter) => param.sensitive === true)
      .map((param) => param.name),
  );
  if (sensitive.size === 0) return url;
  const query = new URLSearchParams(url.slice(at + 1));
  for (const name of sensitive) {
    if (query.has(name)) query.set(name, REDACTED);
  }
  return `${url.slice(0, at)}?${query.toString()}`;
}
