import { Injectable } from '@nestjs/common';

export interface User {
  id: string;
  username: string;
  displayName: string;
  followers: number;
  following: number;
  verified: boolean;
}

/** Where users come from: bind another implementation (a database) in the module to swap it. */
export abstract class UsersRepository {
  abstract findById(id: string): Promise<User | undefined>;
}

const SEED: readonly User[] = [
  {
    id: '1',
    username: 'alice',
    displayName: 'Alice Nakamoto',
    followers: 1520,
    following: 180,
    verified: true,
  },
  {
    id: '2',
    username: 'bob',
    displayName: 'Bob Builder',
    followers: 342,
    following: 410,
    verified: false,
  },
  {
    id: '3',
    username: 'carol',
    displayName: 'Carol Chain',
    followers: 8930,
    following: 95,
    verified: true,
  },
];

@Injectable()
export class InMemoryUsersRepository extends UsersRepository {
  private readonly users = new Map(SEED.map((user) => [user.id, user]));

  findById(id: string): Promise<User | undefined> {
    return Promise.resolve(this.users.get(id));
  }
}
