import { HttpStatus } from '@nestjs/common';
import { ActionException } from '../../kit';
import { UserLookupService } from './user-lookup.service';
import { InMemoryUsersRepository, type User, UsersRepository } from './users.repository';

const USER_FIELDS = ['id', 'username', 'displayName', 'followers', 'following', 'verified'];

describe('UserLookupService with the seeded repository', () => {
  const service = new UserLookupService(new InMemoryUsersRepository());

  it.each([['1'], ['2'], ['3']])('finds seeded user %s with every profile field', async (id) => {
    const { data, message } = await service.lookup(id);
    expect(Object.keys(data ?? {}).sort()).toEqual([...USER_FIELDS].sort());
    expect(data).toMatchObject({
      id,
      username: expect.any(String),
      displayName: expect.any(String),
      followers: expect.any(Number),
      following: expect.any(Number),
      verified: expect.any(Boolean),
    });
    expect(message).toContain(data?.username);
  });

  it('ignores surrounding spaces in the id', async () => {
    expect((await service.lookup(' 2 ')).data?.id).toBe('2');
  });

  it('answers a 404 ActionException for an unknown id, echoing it as context', async () => {
    const thrown = await service.lookup('999').catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ActionException);
    const error = thrown as ActionException;
    expect(error.getStatus()).toBe(HttpStatus.NOT_FOUND);
    expect(error.error).toContain('999');
    expect(error.details.data).toEqual({ userId: '999' });
  });
});

describe('UserLookupService with another repository', () => {
  class OneUserRepository extends UsersRepository {
    readonly asked: string[] = [];
    findById(id: string): Promise<User | undefined> {
      this.asked.push(id);
      const user: User = {
        id: 'db-7',
        username: 'dana',
        displayName: 'Dana DB',
        followers: 1,
        following: 2,
        verified: false,
      };
      return Promise.resolve(id === user.id ? user : undefined);
    }
  }

  it('reads users only through the repository it is given', async () => {
    const repository = new OneUserRepository();
    const service = new UserLookupService(repository);
    expect((await service.lookup('db-7')).data?.username).toBe('dana');
    await expect(service.lookup('1')).rejects.toBeInstanceOf(ActionException);
    expect(repository.asked).toEqual(['db-7', '1']);
  });
});
