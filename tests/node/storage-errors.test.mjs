// The one place storage failures get our codes (src/js/errors.js), and the texts the model reads.

import { test } from "node:test";
import assert from "node:assert/strict";
import { MemoryToolError, isStorageError, toStorageError } from "../../src/js/errors.js";

const dom = (name, message = "details") => new DOMException(message, name);

test("MemoryToolError is an Error with a name and a stable code", () => {
  const error = new MemoryToolError("NOT_FOUND", "gone", { cause: 1 });
  assert.ok(error instanceof Error);
  assert.equal(error.name, "MemoryToolError");
  assert.equal(error.code, "NOT_FOUND");
  assert.equal(error.message, "gone");
  assert.equal(error.cause, 1);
  assert.match(error.stack, /MemoryToolError: gone/);
});

test("QuotaExceededError becomes QUOTA_EXCEEDED", () => {
  for (const error of [dom("QuotaExceededError"), Object.assign(new Error("x"), { name: "NS_ERROR_DOM_QUOTA_REACHED" })]) {
    const mapped = toStorageError(error);
    assert.equal(mapped.code, "QUOTA_EXCEEDED");
    assert.equal(mapped.cause, error);
    assert.ok(isStorageError(mapped));
  }
});

test("other DOMExceptions become STORAGE_FAILED, VersionError with its own message", () => {
  for (const name of ["InvalidStateError", "TransactionInactiveError", "AbortError", "UnknownError", "DataError", "NotFoundError"]) {
    const mapped = toStorageError(dom(name));
    assert.equal(mapped.code, "STORAGE_FAILED", name);
    assert.match(mapped.message, new RegExp(name));
  }
  const version = toStorageError(dom("VersionError"));
  assert.equal(version.code, "STORAGE_FAILED");
  assert.match(version.message, /newer version of memory-tool-wasm/);
});

test("anything else a storage throws becomes STORAGE_FAILED; ours pass through", () => {
  assert.equal(toStorageError(new TypeError("fetch failed")).code, "STORAGE_FAILED");
  assert.equal(toStorageError("a string").code, "STORAGE_FAILED");
  assert.equal(toStorageError(null).code, "STORAGE_FAILED");
  const ours = new MemoryToolError("QUOTA_EXCEEDED", "full");
  assert.equal(toStorageError(ours), ours);
  assert.equal(isStorageError(new MemoryToolError("NOT_FOUND", "x")), false);
  assert.equal(isStorageError(new Error("x")), false);
});

