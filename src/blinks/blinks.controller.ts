import {
  applyDecorators,
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  Options,
  Param,
  Post,
  Req,
  UseFilters,
  UseInterceptors,
} from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type {
  Action,
  ActionPostResponse,
  ActionsJson,
  CompletedAction,
} from '@solana/actions-spec';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ActionException } from '../contract/action.exception';
import { TRANSACTIONS_PATH } from '../outcomes/transactions.controller';
import { BlinkAnswerInterceptor, WithHeaders } from './blink-answer.interceptor';
import { postAnswer } from './blink-answers';
import {
  BlinkCatalogue,
  type BlinkDocument,
  blinkPath,
  BLINKS_ROUTE,
  signInLink,
  type WithoutIcon,
} from './blink-catalogue';
import { BlinkDispatch } from './blink-dispatch';
import { BlinkErrorFilter, refusalOf } from './blink-error.filter';
import { BLINK_ROUTE_CONFIG } from './blink-headers';
import { inputsQuery, readAccount, readInputs, readSignature } from './blink-request';
import { BlinkSeals } from './blink-seals';
import { sessionToken, takeSession } from './blink-sign-in';
import { requestIconBase } from './blinks.config';

const BlinkRoute = (): MethodDecorator => RouteConfig(BLINK_ROUTE_CONFIG);
const BlinkPost = (path: string): MethodDecorator =>
  applyDecorators(Post(path), HttpCode(HttpStatus.OK), BlinkRoute());

/**
 * Every action as a blink (the Solana Actions spec, 2.4, on EVM chains): the GET document and
 * the POST that answers the action's own transaction, run through its own route (BlinkDispatch),
 * and the chained POSTs a client makes once a transaction is mined.
 */
@Controller()
@UseFilters(BlinkErrorFilter)
@UseInterceptors(BlinkAnswerInterceptor)
export class BlinksController {
  constructor(
    private readonly catalogue: BlinkCatalogue,
    private readonly dispatch: BlinkDispatch,
    private readonly seals: BlinkSeals,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('actions.json')
  @BlinkRoute()
  actionsJson(): ActionsJson {
    return this.catalogue.actionsJson();
  }

  @Get(`${BLINKS_ROUTE.slice(1)}/:name`)
  @BlinkRoute()
  get(@Param('name') name: string, @Req() req: FastifyRequest): BlinkDocument {
    return this.catalogue.get(this.catalogue.named(name), this.baseUrl(req));
  }

  /** Preflights are answered by the CORS hook; these routes give them the blink's rules. */
  @Options(['actions.json', `${BLINKS_ROUTE.slice(1)}/:name`, `${BLINKS_ROUTE.slice(1)}/*`])
  @HttpCode(HttpStatus.NO_CONTENT)
  @BlinkRoute()
  preflight(): void {}

  @BlinkPost(`${BLINKS_ROUTE.slice(1)}/:name`)
  async post(
    @Param('name') name: string,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
  ): Promise<WithHeaders<ActionPostResponse>> {
    const blink = this.catalogue.named(name);
    if (blink.problem !== undefined) {
      throw new ActionException(HttpStatus.UNPROCESSABLE_ENTITY, blink.problem, {
        message: `This action cannot run as a blink: ${blink.problem}`,
      });
    }
    const { account, body: bag } = readAccount(body);
    // A verified action's: the session its sign-in sealed, in `data` (blink-sign-in.ts).
    const { session, body: values } = blink.signIn ? takeSession(bag) : { body: bag };
    const token = blink.signIn
      ? await sessionToken(this.seals, blink.name, account, session)
      : undefined;
    const inputs = readInputs(blink.action.params ?? [], req.query, values);
    const dispatched = await this.dispatch.post(
      req,
      blink.action.path,
      { params: inputs },
      { user: account, session: token },
    );
    if (dispatched.status >= 300) throw refusalOf(dispatched);
    const answer = postAnswer(blink, dispatched, inputs).body as ActionPostResponse;
    return new WithHeaders(answer, dispatched.headers);
  }

  /** After an approval is mined: the wallet's hash is reported, and the action comes next. */
  @BlinkPost(`${BLINKS_ROUTE.slice(1)}/:name/next/:intent`)
  async next(
    @Param('name') name: string,
    @Param('intent') intent: string,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
  ): Promise<WithoutIcon<Action>> {
    const blink = this.catalogue.named(name);
    const reported = await this.report(req, intent, body);
    const inputs = readInputs(blink.action.params ?? [], req.query, {});
    const query = inputsQuery(inputs);
    const { label } = blink.action;
    const href = query === '' ? blinkPath(blink.name) : `${blinkPath(blink.name)}?${query}`;
    return {
      ...this.catalogue.get(blink, this.baseUrl(req)),
      type: 'action',
      description: `Approval: ${reported} Next: ${label}.`,
      links: {
        // A verified action's session never rides a transaction's chain: its user signs in again.
        actions: [
          blink.signIn ? signInLink(blink.name, query) : { type: 'transaction', label, href },
        ],
      },
    };
  }

  /** After the action's transaction is mined: its outcome in words, as its intent stands. */
  @BlinkPost(`${BLINKS_ROUTE.slice(1)}/:name/completed/:intent`)
  async completed(
    @Param('name') name: string,
    @Param('intent') intent: string,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
  ): Promise<WithoutIcon<CompletedAction>> {
    const blink = this.catalogue.named(name);
    const reported = await this.report(req, intent, body);
    const { icon, title } = this.catalogue.get(blink, this.baseUrl(req));
    return {
      type: 'completed',
      ...(icon !== undefined && { icon }),
      title,
      description: `${blink.action.label}: ${reported}`,
      label: 'Done',
    };
  }

  /**
   * The wallet's hash, reported through the transactions route as the client's own request (its
   * Origin passed on, no in-process mark): the route's origin rule, limits and refusals apply as
   * to a direct `POST /api/transactions/<intent>`, none repeated here.
   */
  private async report(req: FastifyRequest, intent: string, body: unknown): Promise<string> {
    const { signature } = readSignature(body);
    const url = `${TRANSACTIONS_PATH}/${encodeURIComponent(intent)}`;
    const dispatched = await this.dispatch.post(req, url, { hash: signature }, { asClient: true });
    if (dispatched.status >= 300) throw refusalOf(dispatched);
    const { message } = dispatched.body;
    return typeof message === 'string' ? message : '';
  }

  /** Where icons start (blinkIconBase): the request's only outside production. */
  private baseUrl(req: FastifyRequest): string | undefined {
    return requestIconBase(this.config, req);
  }
}
