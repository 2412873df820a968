import type { SubTenantStatusOptions } from '../../../schemas/admin.js';
import type { EmptyInput } from '../../../schemas/common.js';
import { defineQuery } from '../../shared/operation.js';

const OPTIONS: SubTenantStatusOptions['data'] = [
  { value: 'pending', label: 'Pending' },
  { value: 'in_progress', label: 'In progress' },
  { value: 'completed', label: 'Completed' },
];

export const listSubTenantStatusOptions = defineQuery<EmptyInput, SubTenantStatusOptions>({
  name: 'list_sub_tenant_status_options',
  summary: 'Admin: the values of the sub-tenants `onboarding_status` filter, each with its label.',
  input: 'EmptyInput',
  output: 'SubTenantStatusOptions',
  callers: ['user'],
  permission: 'admin access',
  transactional: false,
  async run() {
    return { data: OPTIONS };
  },
});
