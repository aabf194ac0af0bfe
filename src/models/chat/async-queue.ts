/** A push-to-pull bridge: callbacks push values, an async generator pulls them, `end` finishes or fails it. */
export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private waiting: (() => void) | undefined;
  private done = false;
  private failure: { error: unknown } | undefined;

  push(item: T): void {
    this.items.push(item);
    this.wake();
  }

  end(error?: unknown): void {
    this.done = true;
    if (error !== undefined) this.failure = { error };
    this.wake();
  }

  async *drain(): AsyncGenerator<T> {
    for (;;) {
      while (this.items.length > 0) yield this.items.shift() as T;
      if (this.failure) throw this.failure.error;
      if (this.done) return;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}
