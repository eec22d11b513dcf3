// memory-tool-wasm/anthropic for `require`: the same tool as anthropic.js, throwing the SDK's
// CommonJS ToolError, the class a tool runner loaded with `require` tests with `instanceof`
// (the ESM one would get "Error: " put in front of every error text). The rest of the package
// is ESM, loaded here by `require` (Node ^20.19 or >=22.12).

"use strict";

const { ToolError } = require("@anthropic-ai/sdk/lib/tools/ToolError");
const { anthropicEntry } = require("./anthropic-tool.js");

const { memoryTool, sdkHandlers } = anthropicEntry(ToolError);
module.exports = { memoryTool, sdkHandlers };
