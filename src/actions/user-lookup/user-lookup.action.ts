import { ActionParam, defineAction } from '../../kit';
import { TOOLS_MINI_APP } from '../mini-apps';

export class UserLookupParams {
  @ActionParam({
    type: 'string',
    label: 'User ID',
    required: true,
    placeholder: '1',
    maxLength: 64,
  })
  userId!: string;
}

export const userLookupAction = defineAction({
  label: 'Look up user',
  description: 'Show a user profile by its identifier',
  chains: { source: 43113 },
  path: '/api/user-lookup',
  miniApp: TOOLS_MINI_APP,
  params: UserLookupParams,
  responseType: 'data',
  samples: [{ params: { userId: '1' } }],
});
