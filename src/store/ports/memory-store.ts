/** A fact a user asked Evident to remember. Memories belong to exactly one user and are never shared. */
export interface MemoryRecord {
  id: string;
  user: string;
  text: string;
  /** Where it came from (e.g. `thread:<id>`), for the user's own review. */
  source?: string;
  createdAt: string;
}

export interface MemoryHit extends MemoryRecord {
  /** Cosine similarity to the query vector. */
  score: number;
}

export interface MemoryWrite {
  user: string;
  text: string;
  vector: Float32Array;
  source?: string;
  /**
   * Makes the write happen at most once per (user, key): a second write with the same key returns the first
   * memory with `created: false`. The agent passes run id + tool call id, so a replayed approval cannot save twice.
   */
  idempotencyKey?: string;
}

/** Long-term memory. Every call is scoped to one user inside the query: another user's memory is never read. */
export interface MemoryStore {
  addMemory(memory: MemoryWrite): Promise<{ memory: MemoryRecord; created: boolean }>;
  /** The user's memories nearest to `vector` by cosine similarity, best first; rows of another dimension are skipped. */
  searchMemories(user: string, vector: Float32Array, limit: number): Promise<MemoryHit[]>;
  /** The user's memories, oldest first. */
  listMemories(user: string): Promise<MemoryRecord[]>;
  /** Deletes one of the user's memories. False when the user has no memory with that id (whoever else may). */
  deleteMemory(user: string, id: string): Promise<boolean>;
}
