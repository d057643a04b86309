import { Module } from '@nestjs/common';
import {
  ActionController,
  ActionParam,
  defineAction,
  type ExecutionResponse,
  RunAction,
} from '../src/core';
import { TEST_MINI_APP } from './fixtures/mini-apps.fixture';

class NoteParams {
  @ActionParam({ type: 'string', label: 'Note' })
  note?: string;
}

/** A transaction-mode action that needs the user: errors come in the `{error, code}` shape. */
@ActionController(
  defineAction({
    label: 'Test transfer',
    chains: { source: 43113 },
    path: '/api/test-transfer',
    miniApp: TEST_MINI_APP,
    params: NoteParams,
    requiresUser: true,
  }),
)
class TestTransferController {
  @RunAction()
  run(): ExecutionResponse {
    return { serializedTransaction: '0x02c0', chainId: 43113 };
  }
}

/** A data-mode action whose declaration tightens the IP limit to 2 per minute. */
@ActionController(
  defineAction({
    label: 'Tight',
    chains: { source: 43113 },
    path: '/api/tight',
    miniApp: TEST_MINI_APP,
    responseType: 'data',
    rateLimit: { ip: { limit: 2, ttlSeconds: 60 } },
  }),
)
class TightController {
  @RunAction()
  run(): { data: string } {
    return { data: 'ok' };
  }
}

@Module({ controllers: [TestTransferController, TightController] })
export class ThrottlingFixturesModule {}
