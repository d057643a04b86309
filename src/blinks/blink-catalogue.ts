import { HttpStatus, Injectable } from '@nestjs/common';
import type { ActionGetResponse, ActionsJson, LinkedAction } from '@solana/actions-spec';
import { ActionException } from '../contract/action.exception';
import type { DynamicAction } from '../contract/action.types';
import { declaredChains } from '../evm/chains/chain-registry';
import { ActionRegistry } from '../kit/action.registry';
import { MiniAppDocuments } from '../publishing/mini-app-documents';
import { blinkParameters } from './blink-parameters';

/**
 * The field a signed-in blink carries its session in (blink-sign-in.ts): not a name an action may
 * declare, since its blink could not tell the two apart.
 */
export const SESSION_FIELD = 'blinkSession';

/**
 * Why a paid action has no working blink: a blink client cannot pay over x402, so every click
 * would be answered 402 (docs/agents.md, "Pricing an action").
 */
export const PAID_PROBLEM =
  'This action is paid per call over x402, which a blink cannot do: call it from an x402 client (an agent)';

/**
 * A blink's document (or chained action): the spec's, but for its icon, left out where the service
 * may not write its own URL (blinks.config.ts, blinkIconBase). Dialect's client shows no image then.
 */
export type WithoutIcon<T extends { icon: string }> = Omit<T, 'icon'> & { icon?: string };
export type BlinkDocument = WithoutIcon<ActionGetResponse>;

const ABSOLUTE = /^https?:\/\//;

/** Where every blink is served: `/api/blinks/<name>`, name being the action path's last segment. */
export const BLINKS_ROUTE = '/api/blinks';

/** One action as a blink: its declaration's published form, its fields or why it has none. */
export interface Blink {
  name: string;
  action: DynamicAction;
  /** CAIP-2 ids of the chains it acts on (`eip155:43113`): the X-Blockchain-Ids header. */
  blockchainIds: string[];
  /** The linked action's href: the blink with each field templated in its query (spec 2.4). */
  href: string;
  linked?: LinkedAction;
  /**
   * A `user: 'verified'` action: its blink opens with a sign-in (`message`) and shows `linked`,
   * with the session, once signed in (blink-sign-in.ts).
   */
  signIn: boolean;
  /** Why the spec cannot show it: published `disabled`, with this as its error. */
  problem?: string;
  /** Its mini-app's id: the icon of a paid action, which is in no platform document. */
  miniApp?: string;
}

export const blinkName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
export const blinkPath = (name: string): string => `${BLINKS_ROUTE}/${name}`;
export const caip2 = (chainId: number): string => `eip155:${chainId}`;

/**
 * The `message` action a verified action's blink opens with: its POST answers the sign-in message
 * to sign (blink-sign-in.controller.ts). `query` keeps values already chosen (after an approval).
 */
export const signInLink = (name: string, query = ''): LinkedAction => ({
  type: 'message',
  label: 'Sign in with your wallet',
  href: `${blinkPath(name)}/sign-in${query === '' ? '' : `?${query}`}`,
});

/**
 * Every action of the registry as a blink, built once at boot from the declarations that drive
 * the metadata and OpenAPI: nothing is written per action. Two actions whose paths end alike
 * would share a blink: the boot stops naming them.
 */
@Injectable()
export class BlinkCatalogue {
  private readonly byName = new Map<string, Blink>();

  constructor(
    registry: ActionRegistry,
    private readonly documents: MiniAppDocuments,
  ) {
    for (const action of registry.actions()) {
      const name = blinkName(action.path);
      const taken = this.byName.get(name);
      if (taken) {
        throw new Error(
          `Actions ${taken.action.path} and ${action.path} would both be the blink ${blinkPath(name)}: rename one path's last segment`,
        );
      }
      const declaration = registry.find(action.path);
      const verified = declaration?.user === 'verified';
      const paid = declaration?.price !== undefined;
      const entry = blink(name, action, verified, paid);
      this.byName.set(name, paid ? { ...entry, miniApp: declaration?.miniApp.id } : entry);
    }
  }

  find(name: string): Blink | undefined {
    return this.byName.get(name);
  }

  /** The blink of a route's `:name`, or the 404 that says there is none. */
  named(name: string): Blink {
    const blink = this.byName.get(name);
    if (blink) return blink;
    throw new ActionException(HttpStatus.NOT_FOUND, 'No such blink', {
      message: `No action is served as the blink ${name.slice(0, 60)}`,
    });
  }

  all(): Blink[] {
    return [...this.byName.values()];
  }

  /** CAIP-2 ids of every chain a blink acts on, for answers that are about no single one. */
  blockchainIds(): string[] {
    return [...new Set(this.all().flatMap((b) => b.blockchainIds))];
  }

  /**
   * `GET /api/blinks/<name>`: the spec's ActionGetResponse, its icon on `baseUrl` (blinkIconBase).
   * Without a base, an icon that is a path of this service is left out: only an absolute one
   * (METADATA_ICON_URL, a declared URL) is published.
   */
  get(blink: Blink, baseUrl: string | undefined): BlinkDocument {
    const document =
      this.documents.action(blink.action.path, baseUrl ?? '') ??
      (blink.miniApp === undefined
        ? undefined
        : this.documents.miniApp(blink.miniApp, baseUrl ?? ''));
    const icon = document?.icon;
    const { label } = blink.action;
    return {
      type: 'action',
      ...(icon !== undefined && ABSOLUTE.test(icon) && { icon }),
      title: label,
      description: blink.action.description ?? document?.description ?? label,
      label,
      ...(blink.problem !== undefined
        ? { disabled: true, error: { message: blink.problem } }
        : { links: { actions: openingActions(blink) } }),
    };
  }

  /** `GET /actions.json`: each action's own path, and the blinks' paths, map to its blink. */
  actionsJson(): ActionsJson {
    return {
      rules: [
        ...this.all().map((b) => ({ pathPattern: b.action.path, apiPath: blinkPath(b.name) })),
        { pathPattern: `${BLINKS_ROUTE}/**`, apiPath: `${BLINKS_ROUTE}/**` },
      ],
    };
  }
}

/** What a blink's document offers: the action, or first the sign-in a verified action needs. */
function openingActions(blink: Blink): LinkedAction[] {
  if (blink.signIn) return [signInLink(blink.name)];
  return blink.linked ? [blink.linked] : [];
}

function blink(name: string, action: DynamicAction, signIn: boolean, paid: boolean): Blink {
  const blockchainIds = declaredChains(action).map(caip2);
  const mapped = blinkParameters(action.params ?? []);
  const disabled = (problem: string): Blink => ({
    name,
    action,
    blockchainIds,
    href: blinkPath(name),
    signIn,
    problem,
  });
  if (paid) return disabled(PAID_PROBLEM);
  if ('problem' in mapped) return disabled(mapped.problem);
  if (signIn && mapped.parameters.some((p) => p.name === SESSION_FIELD)) {
    return disabled(`${SESSION_FIELD}: the name is the blink's own, for its session`);
  }
  const { parameters } = mapped;
  const query = parameters.map((p) => `${p.name}={${p.name}}`).join('&');
  const href = query === '' ? blinkPath(name) : `${blinkPath(name)}?${query}`;
  const linked: LinkedAction = {
    type: action.responseType === 'data' ? 'post' : 'transaction',
    href,
    label: action.label,
    ...(parameters.length > 0 && { parameters }),
  };
  return { name, action, blockchainIds, href, linked, signIn };
}
