import { HttpStatus, Injectable } from '@nestjs/common';
import { ActionException, type ActionResult } from '../../kit';
import { type User, UsersRepository } from './users.repository';

@Injectable()
export class UserLookupService {
  constructor(private readonly users: UsersRepository) {}

  async lookup(userId: string): Promise<ActionResult<User>> {
    const user = await this.users.findById(userId.trim());
    if (!user) {
      throw new ActionException(HttpStatus.NOT_FOUND, `User ${userId} not found`, {
        message: 'No user has this ID',
        data: { userId },
      });
    }
    return { data: user, message: `Found @${user.username}` };
  }
}
