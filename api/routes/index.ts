import type { RouteSpec } from '../http/route-spec.js';
import { authRoutes } from './auth.routes.js';
import { balanceRoutes } from './balance.routes.js';
import { platformRoutes } from './platform.routes.js';

/** Every route table of the service except the OpenAPI route, which app.ts adds over all of them. */
export const ROUTES: readonly RouteSpec[] = [...platformRoutes, ...balanceRoutes, ...authRoutes];
