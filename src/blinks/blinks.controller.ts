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
import { errorOf, postAnswer } from './blink-answers';
import {
  type Blink,
  BlinkCatalogue,
  type BlinkDocument,
  blinkPath,
  BLINKS_ROUTE,
  type WithoutIcon,
} from './blink-catalogue';
import { BlinkDispatch, type Dispatched } from './blink-dispatch';
import { BlinkErrorFilter, BlinkRefusal } from './blink-error.filter';
import { BLINK_ROUTE_CONFIG } from './blink-headers';
import { inputsQuery, readAccount, readInputs, readSignature } from './blink-request';
import { blinkIconBase } from './blinks.config';

const BlinkRoute = (): MethodDecorator => RouteConfig(BLINK_ROUTE_CONFIG);
const BlinkPost = (path: string): MethodDecorator =>
  applyDecorators(Post(path), HttpCode(HttpStatus.OK), BlinkRoute());

const refuse = (dispatched: Dispatched): BlinkRefusal => {
  const { status, body } = errorOf(dispatched);
  return new BlinkRefusal(body as { message: string }, status, dispatched.headers);
};

/**
 * Every action as a blink (the Solana Actions spec, 2.4, on EVM chains): the GET document and
 * the POST that answers the action's own transaction, run through its own route (BlinkDispatch),
 * and the chained POSTs a client makes once a transaction is mined.
 */
@Controller()
@UseFilters(BlinkErrorFilter)
export class BlinksController {
  constructor(
    private readonly catalogue: BlinkCatalogue,
    private readonly dispatch: BlinkDispatch,
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
    return this.catalogue.get(this.blink(name), this.baseUrl(req));
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
  ): Promise<ActionPostResponse> {
    const blink = this.blink(name);
    if (blink.problem !== undefined) {
      throw new ActionException(HttpStatus.UNPROCESSABLE_ENTITY, blink.problem, {
        message: `This action cannot run as a blink: ${blink.problem}`,
      });
    }
    const { account, body: bag } = readAccount(body);
    const inputs = readInputs(blink.action.params ?? [], req.query, bag);
    const dispatched = await this.dispatch.post(
      req,
      blink.action.path,
      { params: inputs },
      { user: account },
    );
    if (dispatched.status >= 300) throw refuse(dispatched);
    return postAnswer(blink, dispatched, inputs).body as ActionPostResponse;
  }

  /** After an approval is mined: the wallet's hash is reported, and the action comes next. */
  @BlinkPost(`${BLINKS_ROUTE.slice(1)}/:name/next/:intent`)
  async next(
    @Param('name') name: string,
    @Param('intent') intent: string,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
  ): Promise<WithoutIcon<Action>> {
    const blink = this.blink(name);
    const reported = await this.report(req, intent, body);
    const inputs = readInputs(blink.action.params ?? [], req.query, {});
    const query = inputsQuery(inputs);
    const { label } = blink.action;
    return {
      ...this.catalogue.get(blink, this.baseUrl(req)),
      type: 'action',
      description: `Approval: ${reported} Next: ${label}.`,
      links: {
        actions: [
          {
            type: 'transaction',
            label,
            href: query === '' ? blinkPath(blink.name) : `${blinkPath(blink.name)}?${query}`,
          },
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
    const blink = this.blink(name);
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
    if (dispatched.status >= 300) throw refuse(dispatched);
    const { message } = dispatched.body;
    return typeof message === 'string' ? message : '';
  }

  private blink(name: string): Blink {
    const blink = this.catalogue.find(name);
    if (!blink) {
      throw new ActionException(HttpStatus.NOT_FOUND, 'No such blink', {
        message: `No action is served as the blink ${name.slice(0, 60)}`,
      });
    }
    return blink;
  }

  /** Where icons start (blinkIconBase): the request's only outside production. */
  private baseUrl(req: FastifyRequest): string | undefined {
    return blinkIconBase(this.config, () => `${req.protocol.toLowerCase()}://${req.host}`);
  }
}
