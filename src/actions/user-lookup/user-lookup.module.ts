import { Module } from '@nestjs/common';
import { UserLookupController } from './user-lookup.controller';
import { UserLookupService } from './user-lookup.service';
import { InMemoryUsersRepository, UsersRepository } from './users.repository';

@Module({
  controllers: [UserLookupController],
  providers: [UserLookupService, { provide: UsersRepository, useClass: InMemoryUsersRepository }],
})
export class UserLookupModule {}
