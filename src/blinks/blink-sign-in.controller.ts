import {
  applyDecorators,
  Body,
  Controller,
  HttpCode,
  HttpStatus,
  Inject,
  Param,
  Post,
  Req,
  UseFilters,
} from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { Action, SignMessageResponse } from '@solana/actions-spec';
import type { FastifyRequest } from 'fastify';
import { SiweVerifier } from '../auth/siwe.verifier';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ActionException } from '../contract/action.exception';
import { NONCE_PATH, SIGN_IN_PATH } from '../kit/verified-user';
import {
  type Blink,
  BlinkCatalogue,
  blinkPath,
  BLINKS_ROUTE,
  type WithoutIcon,
} from './blink-catalogue';
import { BlinkDispatch } from './blink-dispatch';
import { BlinkErrorFilter, refusalOf } from './blink-error.filter';
import { BLINK_ROUTE_CONFIG } from './blink-headers';
import { badRequest, inputsQuery, readAccount, readInputs } from './blink-request';
import { BlinkSeals, type SignInState } from './blink-seals';
import {
  assertAccount,
  readSignedIn,
  sealRefusal,
  signedInAction,
  signInMessage,
} from './blink-sign-in';
import { requestIconBase } from './blinks.config';

const BlinkPost = (path: string): MethodDecorator =>
  applyDecorators(Post(path), HttpCode(HttpStatus.OK), RouteConfig(BLINK_ROUTE_CONFIG));

/** What the service's own sign-in routes answer in their envelope's `data`. */
interface NonceData {
  nonce: string;
  expiresAt: number;
}
interface SessionData {
  token: string;
  expiresAt: number;
}

/**
 * Sign-in inside a verified action's blink (spec 2.4's `message` action): the sign-in message,
 * then its signature exchanged for a session the blink carries. Each step runs through the
 * service's own sign-in routes, in-process (BlinkDispatch): the nonce route's nonce, and
 * `POST /api/auth/siwe`'s checks (the message, the domain, the chain, the nonce used once, an EOA's
 * or a smart wallet's signature), its limits and refusals, none repeated here.
 */
@Controller()
@UseFilters(BlinkErrorFilter)
export class BlinkSignInController {
  constructor(
    private readonly catalogue: BlinkCatalogue,
    private readonly dispatch: BlinkDispatch,
    private readonly seals: BlinkSeals,
    private readonly siwe: SiweVerifier,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `{account}` → the EIP-4361 message for `account` to sign, on a fresh nonce, and its fields
   * sealed as `state`; links.next is where the signature goes.
   */
  @BlinkPost(`${BLINKS_ROUTE.slice(1)}/:name/sign-in`)
  async signIn(
    @Param('name') name: string,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
  ): Promise<SignMessageResponse> {
    const blink = this.signInBlink(name);
    const { account } = readAccount(body);
    // Values kept from an approval: read (and refused) before a nonce is spent on the request.
    const query = inputsQuery(readInputs(blink.action.params ?? [], req.query, {}));
    const answered = await this.dispatch.get(req, NONCE_PATH);
    if (answered.status >= 300) throw refusalOf(answered);
    const { nonce, expiresAt } = answered.body.data as NonceData;
    const state: SignInState = {
      account,
      chainId: blink.action.chains.source,
      nonce,
      ...this.siwe.messageOrigin(req),
      issuedAt: new Date(),
      expirationTime: new Date(expiresAt * 1000),
    };
    return {
      type: 'message',
      data: signInMessage(blink, state),
      state: await this.seals.state(name, state),
      links: {
        next: {
          type: 'post',
          href: `${blinkPath(name)}/signed-in${query === '' ? '' : `?${query}`}`,
        },
      },
    };
  }

  /**
   * `{account, signature, state}` → the action itself, usable: the message rebuilt from its
   * sealed state and posted with the signature to the sign-in route, whose session is sealed in
   * turn into the action's first field.
   */
  @BlinkPost(`${BLINKS_ROUTE.slice(1)}/:name/signed-in`)
  async signedIn(
    @Param('name') name: string,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
  ): Promise<WithoutIcon<Action>> {
    const blink = this.signInBlink(name);
    const sent = readSignedIn(body);
    const state = await this.seals.readState(name, sent.state);
    if ('refused' in state) sealRefusal('sign-in message', state);
    assertAccount(state.account, sent.account);
    const message = signInMessage(blink, state);
    if (sent.data !== undefined && sent.data !== message) {
      throw badRequest('data must be the message of the sign-in answer, unchanged');
    }
    const answered = await this.dispatch.post(req, SIGN_IN_PATH, {
      message,
      signature: sent.signature,
    });
    if (answered.status >= 300) throw refusalOf(answered);
    const { token, expiresAt } = answered.body.data as SessionData;
    const sealed = await this.seals.session(name, { token, account: sent.account, expiresAt });
    const inputs = readInputs(blink.action.params ?? [], req.query, {});
    const document = this.catalogue.get(blink, requestIconBase(this.config, req));
    return signedInAction(blink, document, { sealed, account: sent.account }, inputs);
  }

  /** A blink that needs a sign-in: a verified action's, that the spec can show. */
  private signInBlink(name: string): Blink {
    const blink = this.catalogue.named(name);
    if (!blink.signIn || blink.problem !== undefined) {
      throw new ActionException(HttpStatus.NOT_FOUND, 'No sign-in', {
        message: `The blink ${name} has no sign-in: ${blink.problem ?? 'its action needs none'}`,
      });
    }
    return blink;
  }
}
