import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomically } from './atomic-file';

/** An address the agent is deleting, or deleted, at Kea and has not yet recorded in the ledger. */
export interface PendingReclaim {
  ip: string;
  leaseId: string;
  mac: string;
}

interface SavedReclaims {
  version: 1;
  source: string;
  pending: PendingReclaim[];
}

/**
 * The reclaims in flight, kept on disk beside the checkpoint (`reclaims.json`). An entry
 * is written, durably, before the delete at Kea and removed once the ledger recorded the
 * reclaim, so an agent killed anywhere in between finds on restart every deletion it may
 * have made and not yet recorded.
 */
export class PendingReclaims {
  readonly path: string;
  private readonly pending = new Map<string, PendingReclaim>();

  constructor(
    stateDir: string,
    private readonly source: string,
  ) {
    mkdirSync(stateDir, { recursive: true });
    this.path = join(stateDir, 'reclaims.json');
    let text: string | null = null;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text === null) return;
    const saved = JSON.parse(text) as SavedReclaims;
    if (saved.version !== 1 || !Array.isArray(saved.pending)) throw new Error(`${this.path} is not a list of reclaims this agent wrote`);
    if (saved.source === source) for (const entry of saved.pending) this.pending.set(entry.ip, entry);
  }

  all(): PendingReclaim[] {
    return [...this.pending.values()];
  }

  get(ip: string): PendingReclaim | undefined {
    return this.pending.get(ip);
  }

  add(entry: PendingReclaim): void {
    this.pending.set(entry.ip, { ip: entry.ip, leaseId: entry.leaseId, mac: entry.mac });
    this.save();
  }

  /** True when the entry was there: whoever removes it is the one that saw the reclaim through. */
  remove(entry: PendingReclaim): boolean {
    const found = this.pending.get(entry.ip);
    if (!found || found.leaseId !== entry.leaseId) return false;
    this.pending.delete(entry.ip);
    this.save();
    return true;
  }

  private save(): void {
    const saved: SavedReclaims = { version: 1, source: this.source, pending: this.all() };
    writeAtomically(this.path, JSON.stringify(saved));
  }
}
