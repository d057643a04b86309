import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getDeclaredParams } from '../../kit/action-param.decorator';
import type { ActionSample } from '../../contract/action.types';
import { declaredActions } from './declared-actions';
import type { ActionUnderTest, ConformanceOptions } from './conformance.types';
import { type Call, CONFORMANCE_USER, sampleCall } from './conformance.request';
import { validFiles } from './conformance.values';

/** The action declared on `path`, read from the app's registry (the one source of truth). */
export function actionUnderTest(
  app: NestFastifyApplication,
  path: string,
  options: ConformanceOptions = {},
): ActionUnderTest {
  const found = declaredActions(app).find(({ action }) => action.path === path);
  if (!found) throw new Error(`no action is declared on ${path}`);
  const { action, declaration } = found;
  return {
    app,
    path,
    action,
    declaration,
    params: getDeclaredParams(declaration.params),
    dataMode: declaration.responseType === 'data',
    samples: options.valid ?? declaration.samples ?? [],
    options,
  };
}

/**
 * The request other rules start from: the first valid sample (or no parameters), with the
 * kit's files for upload parameters, a user when the action requires one, and a session when it
 * requires a verified one.
 */
export function baseCall(target: ActionUnderTest): Call {
  const sample: ActionSample = target.samples[0] ?? { params: {} };
  const call = sampleCall(sample, validFiles(target.params));
  if (call.userAddress === undefined && target.declaration.requiresUser) {
    call.userAddress = CONFORMANCE_USER;
  }
  // A verified action's other rules run as a signed-in user (its own rule calls without).
  if (target.declaration.user === 'verified') {
    call.verifiedAs = call.userAddress ?? CONFORMANCE_USER;
    call.verifiedOn = target.declaration.chains.source;
  }
  return call;
}
