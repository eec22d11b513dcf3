// The demo's recorded model, turn by turn, over the real package in Node (in-memory storage):
// in every situation the page can put it in, what it says follows the tool results it was
// sent. An empty memory, a memory that already holds its notes, notes the user edited, a
// read-only memory, a note that is gone, a view that fails. The loop here is the tool
// runner's: send the history, run each tool_use, send the results back.
//
// Needs the built wasm (npm run build). Run: node --test tests/e2e/demo-script.test.mjs

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { MemoryTool } from "memory-tool-wasm";
import { recordedConversations, recordedTurn } from "../../www/agent/scripted-model.js";

const PROFILE = "/memories/profile.md";
const TRIP = "/memories/trips/lisbon.md";

/**
 * Plays one exchange of `conversation` after `history`: the user's recorded message, then the
 * model's turns until it stops using tools. Gives the new history, the texts and the calls.
 * @param {any} conversation @param {any[]} history @param {{ execute: (input: any) => Promise<{ content: any, isError: boolean }> }} memory
 */
async function play(conversation, history, memory) {
  const exchange = history.filter((m) => m.role === "user" && typeof m.content === "string").length;
  const messages = [...history, { role: "user", content: conversation.exchanges[exchange].user }];
  /** @type {string[]} */ const texts = [];
  /** @type {Array<{ input: any, content: string, isError: boolean }>} */ const calls = [];
  for (let i = 0; i < 20; i++) {
    const { turn } = recordedTurn(conversation, messages);
    assert.ok(turn, "the script has a turn");
    const content = [];
    if (turn.text) {
      texts.push(turn.text);
      content.push({ type: "text", text: turn.text });
    }
    const uses = (turn.tools ?? []).map((input, n) => ({ type: "tool_use", id: `t${i}_${n}`, name: "memory", input }));
    messages.push({ role: "assistant", content: [...content, ...uses] });
    if (uses.length === 0) return { history: messages, texts, calls, answer: turn.text ?? "" };
    const results = [];
    for (const use of uses) {
      const { content: out, isError } = await memory.execute(use.input);
      const text = typeof out === "string" ? out : JSON.stringify(out);
      calls.push({ input: use.input, content: text, isError });
      results.push({ type: "tool_result", tool_use_id: use.id, content: text, ...(isError ? { is_error: true } : {}) });
    }
    messages.push({ role: "user", content: results });
  }
  assert.fail("the script never stopped");
}

/** Both conversations in order on `memory`; gives the last exchange of each. */
async function fullRun(memory) {
  const [one, two] = recordedConversations();
  const first = await play(one, [], memory);
  const second = await play(one, first.history, memory);
  const recall = await play(two, [], memory);
  return { first, second, recall };
}

const fresh = () => MemoryTool.open({ storage: "memory" });
const read = async (memory, path) => (await memory.memories.getByPath(path)).content;

describe("the recorded model follows its tool results", () => {
  it("on an empty memory: writes the two notes, fixes the dates, and recalls them in a new conversation", async () => {
    const memory = await fresh();
    const { first, second, recall } = await fullRun(memory);
    assert.deepEqual(first.calls.map((c) => [c.input.command, c.isError]), [["view", false], ["create", false], ["create", false]]);
    assert.match(first.texts[1], /^Nothing about you yet/);
    assert.match(first.answer, /^Noted: you're vegetarian/);
    assert.deepEqual(second.calls.map((c) => [c.input.command, c.isError]), [
      ["str_replace", true],
      ["view", false],
      ["str_replace", false],
      ["insert", false],
      ["str_replace", false],
    ]);
    assert.equal(await read(memory, "/trips/lisbon.md"), "# Lisbon trip\n- dates: 2–6 June\n- hotel: Alfama Guesthouse (booked)\n- status: booked\n");
    assert.match(recall.answer, /dates: 2–6 June.*Alfama Guesthouse.*vegetarian/s);
    assert.match(recall.answer, /on 2 June, try a vegetarian tasting menu/);
  });

  it("replayed on a memory that already holds the notes: reads them instead of saying it knows nothing", async () => {
    const memory = await fresh();
    await fullRun(memory);
    const [one] = recordedConversations();
    const again = await play(one, [], memory);
    assert.ok(!again.texts.some((t) => /Nothing about you yet/.test(t)), again.texts.join("\n"));
    assert.ok(!again.calls.some((c) => c.isError), "no create that fails with already exists");
    assert.match(again.texts[1], /^My memory already holds profile\.md and trips\/lisbon\.md/);
    // What the user says now (12–16 May) differs from the notes (2–6 June, booked): it says so and edits.
    assert.match(again.texts[2], /they said “dates: 2–6 June”, “status: booked”/);
    assert.deepEqual(again.calls.slice(3).map((c) => c.input.command), ["str_replace", "str_replace"]);
    assert.match(again.answer, /^Noted/);
  });

  it("recalls the notes as the user edited them, not as it wrote them", async () => {
    const memory = await fresh();
    await fullRun(memory);
    const profile = await memory.memories.getByPath("/profile.md");
    await memory.memories.update(profile.id, { content: "# About the user\n- eats fish and meat\n- prefers an aisle seat\n" });
    const trip = await memory.memories.getByPath("/trips/lisbon.md");
    await memory.memories.update(trip.id, { content: "# Lisbon trip\n- dates: 9–13 July\n- hotel: Casa do Castelo\n" });
    const [, two] = recordedConversations();
    const recall = await play(two, [], memory);
    assert.match(recall.answer, /eats fish and meat/);
    assert.match(recall.answer, /9–13 July/);
    assert.match(recall.answer, /Casa do Castelo/);
    assert.match(recall.answer, /on 9 July/);
    for (const stale of [/vegetarian/, /2 June/, /Alfama Guesthouse/, /window/]) assert.doesNotMatch(recall.answer, stale);
  });

  it("a create that finds the note already there is followed by an edit, not by “Noted”", async () => {
    const memory = await fresh();
    const [one] = recordedConversations();
    // The note appears between the model's look and its create (another tab, the user).
    const messages = [{ role: "user", content: one.exchanges[0].user }];
    const { turn: look } = recordedTurn(one, messages);
    messages.push({ role: "assistant", content: [{ type: "tool_use", id: "a", name: "memory", input: look?.tools?.[0] }] });
    const listing = await memory.execute(look?.tools?.[0]);
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: listing.content }] });
    await memory.execute({ command: "create", path: PROFILE, file_text: "# About the user\n- eats fish\n" });
    const { turn: writes } = recordedTurn(one, messages);
    assert.deepEqual(writes?.tools?.map((t) => t.command), ["create", "create"]);
    const results = [];
    for (const [n, input] of (writes?.tools ?? []).entries()) {
      const r = await memory.execute(input);
      results.push({ type: "tool_result", tool_use_id: `w${n}`, content: r.content, ...(r.isError ? { is_error: true } : {}) });
    }
    messages.push({ role: "assistant", content: (writes?.tools ?? []).map((input, n) => ({ type: "tool_use", id: `w${n}`, name: "memory", input })) });
    messages.push({ role: "user", content: results });
    const { turn: reread } = recordedTurn(one, messages);
    assert.match(reread?.text ?? "", /profile\.md already exists/);
    assert.deepEqual(reread?.tools, [{ command: "view", path: PROFILE }]);
  });

  it("with a read-only memory: says it cannot save, never “Noted”", async () => {
    const memory = await MemoryTool.open({ storage: "memory", access: "read_only" });
    const [one] = recordedConversations();
    const first = await play(one, [], memory);
    assert.deepEqual(first.calls.map((c) => [c.input.command, c.isError]), [["view", false], ["create", true], ["create", true]]);
    assert.doesNotMatch(first.answer, /Noted|I'll remember/);
    assert.match(first.answer, /^I couldn't save what you told me: this memory is read-only \(the tool answered “Error: Cannot create \/memories\/profile\.md: this memory is read-only”\)/);
    const second = await play(one, first.history, memory);
    assert.deepEqual(second.calls.map((c) => [c.input.command, c.isError]), [["create", true]]);
    assert.match(second.texts[0], /^I couldn't save the trip note before/);
    assert.match(second.answer, /^I couldn't save the new dates and the hotel: this memory is read-only/);
  });

  it("a note that is gone is written again; a view that fails is acknowledged, never cited", async () => {
    const memory = await fresh();
    const [one] = recordedConversations();
    const first = await play(one, [], memory);
    const trip = await memory.memories.getByPath("/trips/lisbon.md");
    await memory.memories.delete(trip.id);
    const second = await play(one, first.history, memory);
    assert.match(second.texts[2], /^The trip note isn't there any more \(“The path \/memories\/trips\/lisbon\.md does not exist/);
    assert.match(second.answer, /^Written again/);

    // A recall whose view of the root fails (a root in no mount).
    const [, elsewhere] = recordedConversations("/memories/nowhere");
    const recall = await play(elsewhere, [], memory);
    assert.equal(recall.calls.length, 1);
    assert.ok(recall.calls[0].isError);
    assert.match(recall.answer, /^I couldn't look at my memory/);
    assert.doesNotMatch(recall.answer, /From my notes|vegetarian|June/);
  });

  it("on an empty memory, the recall says it has no notes", async () => {
    const memory = await fresh();
    const [, two] = recordedConversations();
    const recall = await play(two, [], memory);
    assert.match(recall.answer, /^My memory holds no notes about you or a trip/);
  });
});

describe("the recorded model and words the visitor typed", () => {
  /** The recorded model's answer to `text` after `history`, played on `memory`. */
  async function typed(memory, conversation, history, text) {
    const messages = [...history, { role: "user", content: text }];
    /** @type {string[]} */ const texts = [];
    for (let i = 0; i < 10; i++) {
      const { turn, line } = recordedTurn(conversation, messages);
      assert.equal(line, null, "a typed message is no line of the script");
      if (turn.text) texts.push(turn.text);
      const uses = (turn.tools ?? []).map((input, n) => ({ type: "tool_use", id: `u${i}_${n}`, name: "memory", input }));
      messages.push({ role: "assistant", content: [...(turn.text ? [{ type: "text", text: turn.text }] : []), ...uses] });
      if (uses.length === 0) return { texts, messages };
      const results = [];
      for (const use of uses) {
        const r = await memory.execute(use.input);
        results.push({ type: "tool_result", tool_use_id: use.id, content: r.content, ...(r.isError ? { is_error: true } : {}) });
      }
      messages.push({ role: "user", content: results });
    }
    assert.fail("never stopped");
  }

  it("keeps them as typed, says it cannot read them, and plays its own line after as if nothing were known", async () => {
    const memory = await fresh();
    const [one] = recordedConversations();
    const first = await typed(memory, one, [], "Going to Oslo on 1 July.\nI eat everything.");
    assert.equal(
      await read(memory, "/typed-messages.md"),
      "# Messages typed to the offline recording\nKept word for word: the recording reads no facts from them and adds none.\n\n> Going to Oslo on 1 July.\n> I eat everything.\n",
    );
    for (const text of first.texts) assert.doesNotMatch(text, /Lisbon|vegetarian|window|May|June/);
    // The script's first line, next: its exchange 1 (it knows nothing from the typed words).
    const { turn, line } = recordedTurn(one, [...first.messages, { role: "user", content: one.exchanges[0].user }]);
    assert.equal(line, 0);
    assert.deepEqual(turn.tools, [{ command: "view", path: "/memories" }]);
  });

  it("on a read-only memory, or words the secret filter refuses, it says what the tool answered and that nothing was written", async () => {
    const [one] = recordedConversations();
    const readOnly = await MemoryTool.open({ storage: "memory", access: "read_only" });
    const refused = await typed(readOnly, one, [], "Remember my cat is called Miso.");
    assert.match(refused.texts.at(-1) ?? "", /^I couldn't keep your words: this memory is read-only \(the tool answered “Error: Cannot create \/memories\/typed-messages\.md: this memory is read-only”\)\. Nothing was written\./);
    const filtered = await MemoryTool.open({ storage: "memory", secretFilter: true });
    const secret = await typed(filtered, one, [], "My key is sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ");
    assert.match(secret.texts.at(-1) ?? "", /^The memory refused to keep your words: the tool answered “Error: Cannot write \/memories\/typed-messages\.md: .*”\. Nothing was written\./);
    assert.deepEqual((await filtered.memories.list()).data ?? (await filtered.memories.list()), []);
  });
});

describe("the recorded model's tool_use ids", () => {
  it("carry the run's tag, so a replay's calls are told from the last run's (versions link to their cards by id)", async () => {
    const { scriptedFetch } = await import("../../www/agent/scripted-model.js");
    const [one] = recordedConversations();
    const body = JSON.stringify({ model: "m", max_tokens: 10, messages: [{ role: "user", content: one.exchanges[0].user }] });
    const idsOf = async (/** @type {string} */ tag) => {
      const response = await scriptedFetch(one, { delayMs: 0, tag })("https://api.anthropic.com/v1/messages", { method: "POST", body });
      return (await response.json()).content.filter((/** @type {any} */ b) => b.type === "tool_use").map((/** @type {any} */ b) => b.id);
    };
    assert.deepEqual(await idsOf("aaa111"), ["toolu_recorded_aaa111_1_1_1_1"]);
    assert.deepEqual(await idsOf("bbb222"), ["toolu_recorded_bbb222_1_1_1_1"]);
  });
});
