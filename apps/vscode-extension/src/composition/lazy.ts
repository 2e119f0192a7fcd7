/** A service created on first use, so activation stays cheap and nothing starts while memory is off. */
export class Lazy<T> {
  #value: { readonly value: T } | undefined;
  constructor(private readonly create: () => T) {}
  get(): T {
    this.#value ??= { value: this.create() };
    return this.#value.value;
  }
  /** The value when it was created already; never creates it. */
  peek(): T | undefined {
    return this.#value?.value;
  }
}

export const LazyIngestion = Symbol.for('graphiti-memory.vscode.LazyIngestion');
