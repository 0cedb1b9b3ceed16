import { join } from 'node:path';

/** Where the embedded store keeps its log in a data directory: the server and the CLI must agree. */
export const eventStoreFile = (location: { dataDir: string }): string => join(location.dataDir, 'events.sqlite');
