import { ActionController, ActionParams, type ActionResult, RunAction } from '../../kit';
import { userLookupAction, UserLookupParams } from './user-lookup.action';
import { UserLookupService } from './user-lookup.service';
import type { User } from './users.repository';

@ActionController(userLookupAction)
export class UserLookupController {
  constructor(private readonly userLookup: UserLookupService) {}

  @RunAction()
  run(@ActionParams() { userId }: UserLookupParams): Promise<ActionResult<User>> {
    return this.userLookup.lookup(userId);
  }
}
