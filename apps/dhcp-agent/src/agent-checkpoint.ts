import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomically } from './atomic-file';
import type { FileIdentity } from './file-identity';
import type { PostedRecord } from './posted-records';

/**
 * Where the agent stands: the file it follows (by identity, not name), how far it has read
 * and posted, and the last record it posted for each address. Written after every
 * acknowledged post, atomically (temp file, fsync, rename), so a restart resumes exactly
 * there: nothing read before it is posted again, nothing after it is skipped.
 */
export interface AgentCheckpoint {
  version: 1;
  source: string;
  file: (FileIdentity & { offset: number }) | null;
  posted: Record<string, PostedRecord>;
}

export const emptyCheckpoint = (source: string): AgentCheckpoint => ({ version: 1, source, file: null, posted: {} });

export class CheckpointFile {
  readonly path: string;

  constructor(stateDir: string) {
    mkdirSync(stateDir, { recursive: true });
    this.path = join(stateDir, 'checkpoint.json');
  }

  /** The saved checkpoint; a fresh one when none was saved, or it belonged to another source. */
  load(source: string): AgentCheckpoint {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyCheckpoint(source);
      throw error;
    }
    const saved = JSON.parse(text) as AgentCheckpoint;
    if (saved.version !== 1 || typeof saved.posted !== 'object') throw new Error(`${this.path} is not a checkpoint this agent wrote`);
    return saved.source === source ? saved : emptyCheckpoint(source);
  }

  save(checkpoint: AgentCheckpoint): void {
    writeAtomically(this.path, JSON.stringify(checkpoint));
  }
}
