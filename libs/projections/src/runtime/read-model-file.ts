import { join } from 'node:path';

/** Where an instance keeps its read models: the server and the CLI must agree. */
export const readModelFile = (location: { readModelDir: string }): string => join(location.readModelDir, 'read-models.sqlite');
