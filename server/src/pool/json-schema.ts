import { z } from 'zod';
import { poolRowSchema } from './schemas.js';

// One pool row's JSON Schema (draft 2020-12), generated from the zod schema the loaders validate
// with, so the two cannot drift: `npm run docs` writes it to docs/pool.schema.json and a test checks
// that file is current. docs/pools.md describes the format for people.

export function poolRowJsonSchema(): object {
  // What a file may hold (the input side): keys a zod object does not name are dropped, not refused.
  const { $schema, ...rest } = z.toJSONSchema(poolRowSchema, { io: 'input' });
  return {
    $schema,
    title: 'HERALD pool row',
    description: 'One line of a pool file (JSON Lines): one logged trajectory of a search agent. Keys it does not name are allowed everywhere: ignored, except in meta, which keeps them. See docs/pools.md.',
    ...rest,
  };
}
