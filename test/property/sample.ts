import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** samples/paper.reward: the realistic spec whose mutations the properties feed to the core. */
export const paperSample = readFileSync(path.join(__dirname, '..', '..', '..', 'samples', 'paper.reward'), 'utf8');
