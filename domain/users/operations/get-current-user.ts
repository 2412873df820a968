import type { User } from '../../../schemas/auth.js';
import type { EmptyInput } from '../../../schemas/common.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { readUser } from '../user-view.js';

export const getCurrentUser = defineQuery<EmptyInput, User>({
  name: 'get_current_user',
  summary: 'The signed-in dashboard user.',
  input: 'EmptyInput',
  output: 'User',
  callers: ['user'],
  async run(_input, ctx) {
    const user = await readUser(ctx.tx, ctx.caller.tenantId!, ctx.caller.userId!);
    if (!user) throw new AppError('NOT_FOUND', 'No user for this credential.');
    return user;
  },
});
