// The storage contract's suite (docs/STORAGE.md#checking-your-storage).

import type { KeyValueBackend, MemoryStorage, MemoryTool, MemoryToolOptions } from "./index.js";

/** One check of the contract: `run()` resolves when the storage keeps it, else rejects with what it did instead. */
export interface ContractCase {
  name: string;
  run(): Promise<void>;
}

export interface ContractOptions {
  /**
   * The `MemoryTool` class of the entry you use: with it the suite also runs the six
   * commands and the host API over the storage, against the same calls over `InMemoryStorage`.
   */
  MemoryTool?: { open(options?: MemoryToolOptions): Promise<MemoryTool> };
}

/**
 * The contract for a key-value backend of your own: its five requests, then the storage
 * interface over `KeyValueStorage(backend)`, then (with `MemoryTool`) the package over it.
 */
export function keyValueContract(makeBackend: () => KeyValueBackend, options?: ContractOptions): ContractCase[];

/**
 * The contract for a storage that implements the storage interface itself; methods the
 * interface marks optional are checked where the storage has them.
 */
export function storageContract(makeStorage: () => MemoryStorage, options?: ContractOptions): ContractCase[];
