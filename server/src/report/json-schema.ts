import { z } from 'zod';
import { report } from './schema.js';

// The report's JSON Schema (draft 2020-12), generated from the zod schema so the two cannot drift:
// `npm run schema` writes it to docs/report.schema.json and a test checks that file is current.

export function reportJsonSchema(): object {
  const { $schema, ...rest } = z.toJSONSchema(report);
  return {
    $schema,
    title: 'HERALD audit report',
    description: 'What `herald audit --format json` prints: one entry per audit of a .reward spec. See docs/report.md.',
    ...rest,
  };
}
