import type { CreateAdminInput, CreatedAdmin } from '../../../schemas/users.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand, type Permission } from '../../shared/operation.js';
import { isUniqueViolation } from '../../shared/pg-errors.js';
import { insertTenant } from '../../tenants/index.js';
import { hashPassword } from '../password.js';
import { insertUser } from '../user-store.js';

/** The permission the specification's admin routes require. */
export const ADMIN_PERMISSION: Permission = 'admin access';

export const createAdmin = defineCommand<CreateAdminInput, CreatedAdmin>({
  name: 'create_admin',
  summary: 'Create a dashboard user with the `admin access` permission, in a workspace of its own.',
  input: 'CreateAdminInput',
  output: 'CreatedAdmin',
  callers: ['system'],
  async run(input, ctx) {
    const now = ctx.clock.now();
    const passwordHash = await hashPassword(input.password);
    const workspace = await insertTenant(ctx.tx, { kind: 'workspace', name: input.email, now });
    const user = await insertUser(ctx.tx, {
      tenantId: workspace.id,
      email: input.email,
      passwordHash,
      firstName: input.first_name ?? 'Admin',
      lastName: input.last_name ?? '',
      role: 'admin',
      permissions: [ADMIN_PERMISSION],
      // The operator types the address on the server: it is not an unproven sign-up.
      emailVerifiedAt: now,
      now,
    }).catch((err: unknown) => {
      if (isUniqueViolation(err, 'users_email_unique')) {
        throw AppError.validation({ email: ['has already been taken'] });
      }
      throw err;
    });
    return {
      user_id: user.id,
      tenant_id: user.tenant_id,
      email: user.email,
      role: user.role,
      permissions: user.permissions,
    };
  },
});
