/** Runs at most `slots` tasks at once; the others wait, in the order they came. */
export class TaskSlots {
  readonly #slots: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(slots: number) {
    this.#slots = slots;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#slots) await new Promise<void>((start) => this.#waiting.push(start));
    else this.#running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, or is freed.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}
