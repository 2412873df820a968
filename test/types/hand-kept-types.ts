/**
 * Types written by hand next to a schema, each checked against what FromSchema derives from it:
 * a change to one side that the other does not follow fails `npm run build`. Each says why it is
 * not the FromSchema type itself.
 */
import type { EmptyInput } from '../../schemas/common.js';
import type { Assert, MutuallyAssignable, SchemaType } from './schema-type.js';

/** `Record<string, never>` reads better at call sites than FromSchema's `{}` for "no parameters". */
export type EmptyInputMatches = Assert<MutuallyAssignable<EmptyInput, SchemaType<'EmptyInput'>>>;
