// What the recorded model says and does: not a language model, a script with reasons. Each
// exchange is written as plain steps ("view my memory; if it already holds notes, read them…"),
// and every step reads the tool results the page actually sent back, so what the model says
// follows them: notes already there are read and recalled, "already exists" turns into an edit,
// a read-only memory is said to be read-only, an error is acknowledged, and answers quote the
// notes as they were viewed (edits the user made in the memory browser show up).
//
// A step is replayed from the conversation each time (the SDK's runner sends the whole
// history), so the script keeps no state: `nextTurn` runs the steps over the results received
// so far, and the first step with no results yet is the turn to send.
//
// The recording's facts (Lisbon, 12–16 May, vegetarian, a window seat…) belong to its own lines,
// which the page plays as the recording's. A message the visitor typed is never read for facts:
// `ownMessage` says it is a recording, keeps the words as typed (nothing added), and says so.

/**
 * One turn of the assistant: some text, and the tool calls it makes (none when it is done).
 * @typedef {{ text?: string, tools?: Array<Record<string, unknown>> }} Turn
 */

/**
 * A tool result as the script reads it.
 * @typedef {{ text: string, isError: boolean }} Result
 */

/**
 * An exchange: the user's recorded message, and the steps the model takes to answer it.
 * `steps(ask, memory)` calls `ask(text, tools)` for each turn with tool calls (it gives that
 * turn's results) and returns the final text.
 * @typedef {{ user: string, steps: (ask: (text: string, tools: Array<Record<string, unknown>>) => Result[], memory: Known) => string }} Exchange
 */

/**
 * A recorded conversation, one of a scenario's (the conversations of a scenario are played in
 * order, each a new conversation that knows only the memory). `root` is the memory folder its
 * notes go in.
 * @typedef {{ scenario: string, title: string, intro: string, root: string, exchanges: Exchange[] }} Conversation
 */

/** The recorded scenarios, by the `scenario` of their conversations, with a name for people. */
export const SCENARIOS = Object.freeze([
  { id: "trip", name: "Trip notes, recalled later" },
  { id: "project", name: "A project across sessions" },
]);

/**
 * What the model knows of its notes from earlier exchanges of the same conversation: the
 * content it last wrote or viewed, by path (null: it found the file missing or could not write it).
 * @typedef {Map<string, string | null>} Known
 */

/** The profile facts of the first message, each with the lines of a note it replaces. */
const PROFILE_FACTS = [
  { line: "- vegetarian", about: /vegetarian|vegan|meat|fish|diet|\beat/i },
  { line: "- prefers a window seat on flights", about: /\bseat\b/i },
];

/**
 * The two conversations, over a memory whose root is `root` (`/memories`, or a mounted store's
 * folder such as `/memories/travel`).
 * @param {string} [root]
 * @returns {Conversation[]}
 */
export function recordedConversations(root = "/memories") {
  const profile = `${root}/profile.md`;
  const trip = `${root}/trips/lisbon.md`;
  const name = (/** @type {string} */ path) => path.slice(root.length + 1);
  return [
    {
      scenario: "trip",
      title: "Conversation 1: the model takes notes",
      intro: "A recorded visitor plans a trip: the model checks its memory, writes two notes, then edits one when the plans change.",
      root,
      exchanges: [
        {
          user: "Hi! I'm planning a trip to Lisbon from 12 to 16 May. I'm vegetarian and I always pick a window seat. Please remember that.",
          steps(ask, known) {
            const [look] = ask("I'll check my memory first.", [{ command: "view", path: root }]);
            const wanted = new Map([
              [profile, { fresh: "# About the user\n- vegetarian\n- prefers a window seat on flights\n", facts: PROFILE_FACTS }],
              [
                trip,
                {
                  fresh: "# Lisbon trip\n- dates: 12–16 May\n- status: planning\n",
                  facts: [keyed("dates", "12–16 May"), keyed("status", "planning")],
                },
              ],
            ]);
            const there = look.isError ? [] : [...wanted.keys()].filter((path) => lists(look.text, path));
            /** @type {Map<string, string>} what each note holds as viewed */
            const seen = new Map();
            /** @type {string[]} what the notes said that the user's message changes */
            const corrected = [];
            if (there.length > 0) {
              const views = ask(
                `My memory already holds ${there.map(name).join(" and ")}. I'll read ${there.length === 1 ? "it" : "them"} before I write anything.`,
                there.map((path) => ({ command: "view", path })),
              );
              views.forEach((view, i) => {
                const content = viewedContent(view);
                if (content !== null) seen.set(there[i], content);
                else known.set(there[i], null);
              });
            }
            /** @type {Array<Record<string, unknown>>} */
            const writes = [];
            for (const [path, note] of wanted) {
              const content = seen.get(path);
              if (content === undefined) writes.push({ command: "create", path, file_text: note.fresh });
              else {
                const merged = mergeFacts(content, note.facts);
                corrected.push(...merged.changes.map((c) => c.from).filter((from) => from !== null).map((from) => `“${from.replace(/^- /, "")}”`));
                writes.push(...merged.edits(path));
                known.set(path, merged.content);
              }
            }
            if (writes.length === 0) {
              return (
                `My notes already say all of that: ${describeNotes(seen, { profile, trip })}. ` +
                "Nothing to change; I'll remember it the next time we talk."
              );
            }
            const others = look.isError ? [] : topEntries(look.text, root);
            const intro = look.isError
              ? `I couldn't look at my memory (it answered: “${look.text}”). I'll try to write the notes anyway.`
              : there.length === 0
                ? others.length === 0
                  ? "Nothing about you yet, so I'll write down what you told me: one note about you, one about the trip."
                  : `My memory holds ${listWords(others)}, but no ${name(profile)} or ${name(trip)}, so I'll write down what you told me: one note about you, one about the trip.`
                : corrected.length > 0
                  ? `Some of that is different from my notes (they said ${corrected.join(", ")}): I'll edit them to match what you just told me.`
                  : "I'll add what the notes are missing.";
            const results = ask(intro, writes);
            const outcome = outcomeOf(writes, results, known, wanted, ask, name);
            if (outcome.failed.length > 0) return outcome.failure;
            return (
              "Noted: you're vegetarian, you like a window seat, and your Lisbon trip runs from 12 to 16 May. " +
              "I'll remember this the next time we talk."
            );
          },
        },
        {
          user: "Change of plan: the trip moved to 2–6 June, and I've booked the Alfama Guesthouse.",
          steps(ask, known) {
            // The model types the dates line from what it believes is there, with a hyphen for
            // the note's en dash: the recorded mistake, which the tool's error makes it check.
            const believed = known.get(trip);
            if (believed === null) {
              // The first exchange could not save the note: try to write it now, with the news.
              const fresh = "# Lisbon trip\n- dates: 2–6 June\n- hotel: Alfama Guesthouse (booked)\n- status: booked\n";
              const [made] = ask("I couldn't save the trip note before; I'll try to write it now, with the new dates.", [
                { command: "create", path: trip, file_text: fresh },
              ]);
              if (made.isError && isReadOnly(made)) return readOnlyWords(made, "the new dates and the hotel");
              if (made.isError) return failureWords([{ path: trip, result: made }], name);
              known.set(trip, fresh);
              return "Written: Lisbon is 2–6 June, and you're staying at the Alfama Guesthouse.";
            }
            const believedDates = (believed ?? "").split("\n").find((l) => l.startsWith("- dates:")) ?? "- dates: 12–16 May";
            const [first] = ask("I'll update the trip note.", [
              { command: "str_replace", path: trip, old_str: believedDates.replace(/–/g, "-"), new_str: "- dates: 2–6 June" },
            ]);
            if (first.isError && isReadOnly(first)) return readOnlyWords(first, "the new dates and the hotel");
            const [view] = ask(
              first.isError ? "That text wasn't in the note. Let me read it as it is." : "Dates changed. Let me read the note to add the hotel in the right place.",
              [{ command: "view", path: trip }],
            );
            const content = viewedContent(view);
            if (content === null) {
              const fresh = "# Lisbon trip\n- dates: 2–6 June\n- hotel: Alfama Guesthouse (booked)\n- status: booked\n";
              const writes = [{ command: "create", path: trip, file_text: fresh }];
              const results = ask(`The trip note isn't there any more (“${view.text}”). I'll write it again.`, writes);
              if (results[0].isError) return failureWords([{ path: trip, result: results[0] }], name);
              known.set(trip, fresh);
              return "Written again: Lisbon is 2–6 June, and you're staying at the Alfama Guesthouse.";
            }
            const merged = mergeFacts(content, [keyed("dates", "2–6 June"), keyed("hotel", "Alfama Guesthouse (booked)", "dates"), keyed("status", "booked")]);
            if (merged.changes.length === 0) return "The note already says 2–6 June and the Alfama Guesthouse: nothing left to change.";
            const writes = merged.edits(trip);
            const datesLine = content.split("\n").find((l) => l.startsWith("- dates:"));
            const what = [
              first.isError && datesLine ? `The note says “${datesLine}”${datesLine.includes("–") ? ", with an en dash" : ""}.` : "",
              merged.changes.some((c) => c.key === "dates") ? "Fixing the dates," : "",
              merged.changes.some((c) => c.key === "hotel") ? "adding the hotel," : "",
              merged.changes.some((c) => c.key === "status") ? "and marking the trip as booked." : "",
            ]
              .filter(Boolean)
              .join(" ");
            const results = ask(what.replace(/,$/, "."), writes);
            const failed = results.map((result, i) => ({ path: trip, result, input: writes[i] })).filter((f) => f.result.isError);
            if (failed.length > 0) {
              if (isReadOnly(failed[0].result)) return readOnlyWords(failed[0].result, "the new dates and the hotel");
              return failureWords(failed, name);
            }
            known.set(trip, merged.content);
            return "Updated: Lisbon is now 2–6 June, and you're staying at the Alfama Guesthouse.";
          },
        },
      ],
    },
    {
      scenario: "trip",
      title: "Conversation 2: a fresh start, and the model remembers",
      intro: "A new conversation knows nothing of the first one; only the memory files carry over.",
      root,
      exchanges: [
        {
          user: "Any dinner ideas for my first evening in Lisbon?",
          steps(ask) {
            const [look] = ask("Let me see what I know about you and your plans.", [{ command: "view", path: root }]);
            if (look.isError) {
              return (
                `I couldn't look at my memory (it answered: “${look.text}”), so I know nothing about your plans. ` +
                "Tell me where you're staying and what you eat, and I'll suggest a place for that first evening."
              );
            }
            const there = [profile, trip].filter((path) => lists(look.text, path));
            if (there.length === 0) {
              const others = topEntries(look.text, root);
              return (
                (others.length === 0
                  ? `My memory holds no notes about you or a trip (I looked at ${root}). `
                  : `My memory has no ${name(profile)} or ${name(trip)} (I looked at ${root}: it holds only ${listWords(others)}). `) +
                "For a first evening in Lisbon, a walk through Alfama to a miradouro at sunset is hard to beat; " +
                "tell me what you eat and I'll suggest where to have dinner."
              );
            }
            const views = ask(
              "",
              there.map((path) => ({ command: "view", path })),
            );
            /** @type {Map<string, string>} */
            const seen = new Map();
            /** @type {string[]} */
            const unreadable = [];
            views.forEach((view, i) => {
              const content = viewedContent(view);
              if (content === null) unreadable.push(`I couldn't read ${name(there[i])} (“${view.text}”).`);
              else seen.set(there[i], content);
            });
            if (seen.size === 0) return `${unreadable.join(" ")} So I know nothing about your plans yet: tell me, and I'll suggest a place.`;
            return [...unreadable, `From my notes: ${describeNotes(seen, { profile, trip })}.`, dinnerIdea(seen.get(profile) ?? "", seen.get(trip) ?? "")].join(" ");
          },
        },
      ],
    },
    ...projectConversations(root),
  ];
}

/** The features the project scenario's first session writes down. */
const FEATURES = ["Add a recipe (title, ingredients, steps)", "List the recipes", "Search recipes by ingredient"];

/**
 * The multi-session pattern (docs: long-running agents): the first session sets up a progress
 * log and a feature list before any work; each later session reads both first, resumes from
 * what they say (as they are now: edits the user made show up), does one feature, and updates
 * both before it ends. The work itself is not done in this recording: the model says so.
 * @param {string} root
 * @returns {Conversation[]}
 */
function projectConversations(root) {
  const progress = `${root}/progress.md`;
  const features = `${root}/features.md`;
  const name = (/** @type {string} */ path) => path.slice(root.length + 1);
  return [
    {
      scenario: "project",
      title: "Session 1: the model sets up its memory for a project",
      intro: "An initialising session: before any work, the model writes a progress log and a feature list to memory.",
      root,
      exchanges: [
        {
          user: "Let's build a small recipe app over several sessions. Before anything else, set up your memory so that any later session can pick up where we left off.",
          steps(ask) {
            const [look] = ask("First, my memory: is there a project under way already?", [{ command: "view", path: root }]);
            if (look.isError) return `I couldn't look at my memory (it answered: “${look.text}”), so I won't set anything up blind. Try again once the memory can be read.`;
            const there = [progress, features].filter((path) => lists(look.text, path));
            if (there.length > 0) {
              const views = ask(
                `My memory already holds ${there.map(name).join(" and ")}. I'll read ${there.length === 1 ? "it" : "them"} instead of starting over.`,
                there.map((path) => ({ command: "view", path })),
              );
              const seen = new Map();
              views.forEach((view, i) => {
                const content = viewedContent(view);
                if (content !== null) seen.set(there[i], content);
              });
              return (
                `A project is already under way here, so I haven't overwritten anything. ${describeProject(seen.get(progress), seen.get(features))} ` +
                "Start a new conversation and I'll resume from these notes, or start over with an empty memory."
              );
            }
            const featureList = `# Features\n${FEATURES.map((f, i) => `- [ ] ${i + 1}. ${f}`).join("\n")}\n`;
            const log =
              "# Progress\nA feature is done only once it works end to end.\n\n## Session 1\n" +
              "- Set up progress.md (this log) and features.md (what the app must do).\n" +
              `- Next: ${FEATURES[0]}.\n`;
            const writes = [
              { command: "create", path: features, file_text: featureList },
              { command: "create", path: progress, file_text: log },
            ];
            const others = topEntries(look.text, root);
            const results = ask(
              (others.length === 0
                ? "My memory is empty: no project under way."
                : `No project under way: my memory holds ${listWords(others)}, but no progress log or feature list.`) +
                " I'll write the feature list and a progress log before any work, so that a later session can resume from them.",
              writes,
            );
            const failed = results.map((result, i) => ({ path: String(writes[i].path), result })).filter((f) => f.result.isError);
            if (failed.length > 0) {
              const readOnly = failed.find((f) => isReadOnly(f.result));
              return readOnly ? readOnlyWords(readOnly.result, "the project's notes") : failureWords(failed, name);
            }
            return (
              `My memory is set up: ${name(features)} lists ${FEATURES.length} features, none done yet, and ${name(progress)} says what this session did and what comes next (feature 1). ` +
              "Each later session reads both first and updates them before it ends."
            );
          },
        },
      ],
    },
    {
      scenario: "project",
      title: "Session 2: a new conversation resumes from memory",
      intro: "A new session knows nothing of the last one: it reads the progress log and the feature list, resumes, and logs honestly what it did.",
      root,
      exchanges: [
        {
          user: "Let's continue with the recipe app.",
          steps(ask) {
            const [look] = ask("Let me read my notes on this project before anything else.", [{ command: "view", path: root }]);
            if (look.isError) return `I couldn't look at my memory (it answered: “${look.text}”), so I can't tell where we left off. Tell me, and I'll write it down.`;
            const there = [progress, features].filter((path) => lists(look.text, path));
            if (there.length === 0) {
              return `There is no progress log or feature list in my memory (I looked at ${root}), so there is nothing to resume. Start with session 1, which sets them up.`;
            }
            const views = ask(
              "",
              there.map((path) => ({ command: "view", path })),
            );
            /** @type {Map<string, string>} */
            const seen = new Map();
            views.forEach((view, i) => {
              const content = viewedContent(view);
              if (content !== null) seen.set(there[i], content);
            });
            const log = seen.get(progress);
            const list = seen.get(features);
            if (log === undefined || list === undefined) {
              const missing = log === undefined ? name(progress) : name(features);
              return `${describeProject(log, list)} I couldn't read ${missing}, so I won't guess where we are: tell me, and I'll rebuild it.`;
            }
            const lines = list.split("\n");
            const open = lines.findIndex((line) => /^- \[ \] /.test(line));
            const sessions = [...log.matchAll(/^## Session (\d+)/gm)].map((m) => Number(m[1]));
            const session = (sessions.length ? Math.max(...sessions) : 0) + 1;
            const where = describeProject(log, list);
            if (open < 0) return `${where} Every feature on the list is done: there is nothing left to resume. Tell me what to add to ${name(features)}.`;
            const feature = lines[open].replace(/^- \[ \] /, "");
            const logLines = log.split("\n");
            const end = logLines[logLines.length - 1] === "" ? logLines.length - 1 : logLines.length;
            // This recording writes no code, so it checks nothing end to end: it marks nothing
            // done, and its log says what the session really did (docs: long-running agents).
            const entry =
              `## Session ${session}\n- Picked: ${feature}.\n` +
              "- Not done: no code was written in this recorded session, so nothing was checked end to end; the feature stays open.\n" +
              `- Next: ${feature}.`;
            const writes = [{ command: "insert", path: progress, insert_line: end, insert_text: entry }];
            const results = ask(
              `${where} So this is session ${session}, and the feature to do is “${feature}”. ` +
                "This recording writes no code, so the feature is not built and cannot be checked end to end: I won't mark it done. I'll log the session as it really went.",
              writes,
            );
            const failed = results.map((result, i) => ({ path: String(writes[i].path), result })).filter((f) => f.result.isError);
            if (failed.length > 0) {
              const readOnly = failed.find((f) => isReadOnly(f.result));
              return readOnly ? readOnlyWords(readOnly.result, "what this session did") : failureWords(failed, name);
            }
            return (
              `Logged session ${session} in ${name(progress)}: “${feature}” stays open, and ${name(features)} is unchanged, ` +
              "because nothing was built or checked in this recording. A session that builds the feature marks it done once it works end to end; this one starts from the log."
            );
          },
        },
      ],
    },
  ];
}

/** Where the recorded model keeps the messages visitors type themselves, under its root. */
export const TYPED_NOTE = "typed-messages.md";

/** The first lines of that note: what it is, and that nothing in it was added. */
const TYPED_HEADER = "# Messages typed to the offline recording\nKept word for word: the recording reads no facts from them and adds none.\n\n";

/**
 * The recorded model's answer to a message the visitor typed (not the recording's own line):
 * it says it is a recording that cannot understand it, keeps the words exactly as typed in
 * `TYPED_NOTE` (a create, or, when the note is there, a view and an insert at its end), and says
 * what happened. It never writes or says a fact of its own: what it writes is the visitor's
 * text, each line quoted (`> `), and what it says names no trip, place, date or taste.
 * @param {string} root  the memory folder (as for the recorded conversations)
 * @param {string} text  the visitor's message
 * @returns {Exchange}
 */
export function ownMessage(root, text) {
  const path = `${root}/${TYPED_NOTE}`;
  const quoted = text.split("\n").map((line) => (line === "" ? ">" : `> ${line}`)).join("\n");
  const after =
    "That is all this recording can do with words of your own: to have a model understand them, use your own key; " +
    "to watch the recorded conversation, press “Play the next message”.";
  return {
    user: text,
    steps(ask) {
      const [made] = ask(
        "I'm the offline recording, not a language model: I can't understand what you wrote, so I take no facts from it and answer none of it. " +
          "What I can do for real is keep your words exactly as you typed them, so you can watch the memory tool write them.",
        [{ command: "create", path, file_text: `${TYPED_HEADER}${quoted}\n` }],
      );
      if (!made.isError) return `Kept: your message is in ${TYPED_NOTE}, word for word (the memory browser shows it). ${after}`;
      if (isReadOnly(made)) return `${refusedWords(made)} Nothing was written. ${after}`;
      if (!/already exists/.test(made.text)) return `${refusedWords(made)} Nothing was written. ${after}`;
      const [view] = ask(`${TYPED_NOTE} is there already: I'll read it, then add your message at its end.`, [{ command: "view", path }]);
      const content = viewedContent(view);
      if (content === null) return `I couldn't read ${TYPED_NOTE} (the tool answered “${view.text}”), so I didn't add your message. ${after}`;
      const lines = content.split("\n");
      const last = lines[lines.length - 1];
      const [added] = ask("", [{ command: "insert", path, insert_line: lines.length, insert_text: last === "" ? quoted : `\n${quoted}` }]);
      if (added.isError) return `${refusedWords(added)} Nothing was added. ${after}`;
      return `Added: your message is at the end of ${TYPED_NOTE}, word for word. ${after}`;
    },
  };
}

/** A write the memory refused, in words. @param {Result} result */
function refusedWords(result) {
  return isReadOnly(result)
    ? `I couldn't keep your words: this memory is read-only (the tool answered “${result.text}”).`
    : `The memory refused to keep your words: the tool answered “${result.text}”.`;
}

/**
 * Where a project stands, from its notes as viewed: the last session logged, what it said comes
 * next, and how many features are done.
 * @param {string | undefined} log @param {string | undefined} list
 */
function describeProject(log, list) {
  const parts = [];
  if (log !== undefined) {
    const sessions = [...log.matchAll(/^## Session (\d+)/gm)].map((m) => Number(m[1]));
    const next = [...log.matchAll(/^- Next: (.*)$/gm)].map((m) => m[1]).pop();
    parts.push(
      sessions.length
        ? `My progress log ends with session ${Math.max(...sessions)}${next ? `, which said next: ${next.replace(/\.$/, "")}` : ""}.`
        : "My progress log has no sessions in it.",
    );
  }
  if (list !== undefined) {
    const items = list.split("\n").filter((line) => /^- \[[ x]\] /.test(line));
    const done = items.filter((line) => line.startsWith("- [x] ")).length;
    parts.push(`The feature list has ${done} of ${items.length} done.`);
  }
  return parts.join(" ");
}

/**
 * Runs an exchange's steps over the results received so far and gives the turn to send next,
 * or null when the exchange is over (the user has spoken again).
 * @param {Exchange} exchange
 * @param {Array<Result[]>} answered  the results of each turn already sent in this exchange, in order
 * @param {Known} known               what earlier exchanges left the model knowing (updated in place)
 * @returns {Turn}
 */
export function nextTurn(exchange, answered, known) {
  let at = 0;
  /** @type {Turn | null} */
  let next = null;
  const ask = (/** @type {string} */ text, /** @type {Array<Record<string, unknown>>} */ tools) => {
    if (at < answered.length) return answered[at++];
    next = { ...(text ? { text } : {}), tools };
    throw NEXT;
  };
  try {
    const text = exchange.steps(ask, known);
    return { text };
  } catch (error) {
    if (error === NEXT && next) return next;
    throw error;
  }
}
const NEXT = Symbol("the next turn is found");

/**
 * A note's bullet `- key: value`; `after` names the bullet a new one goes below.
 * @param {string} key @param {string} value @param {string} [after]
 */
function keyed(key, value, after) {
  return { line: `- ${key}: ${value}`, about: new RegExp(`^- ${key}:`), key, after };
}

/**
 * The note `content` with each fact's line in place of the line about the same thing (or added),
 * the changes, and the tool calls that make them (a str_replace per changed line, an insert per
 * new one), so the user's other lines stay.
 * @param {string} content
 * @param {Array<{ line: string, about: RegExp, key?: string, after?: string }>} facts
 */
function mergeFacts(content, facts) {
  const lines = content.split("\n");
  const trailing = lines.length > 0 && lines[lines.length - 1] === "" ? lines.pop() : undefined;
  /** @type {Array<{ key: string, from: string | null, to: string, at: number }>} */
  const changes = [];
  for (const fact of facts) {
    const at = lines.findIndex((l) => fact.about.test(l));
    if (at >= 0) {
      if (lines[at] !== fact.line) {
        changes.push({ key: fact.key ?? fact.line, from: lines[at], to: fact.line, at });
        lines[at] = fact.line;
      }
    } else {
      const below = fact.after ? lines.findIndex((l) => l.startsWith(`- ${fact.after}:`)) : -1;
      const place = below >= 0 ? below + 1 : lines.length;
      lines.splice(place, 0, fact.line);
      changes.push({ key: fact.key ?? fact.line, from: null, to: fact.line, at: place });
    }
  }
  const merged = lines.join("\n") + (trailing !== undefined ? "\n" : "");
  return {
    content: merged,
    changes,
    edits: (/** @type {string} */ path) =>
      changes.map((c) =>
        c.from !== null
          ? { command: "str_replace", path, old_str: c.from, new_str: c.to }
          : { command: "insert", path, insert_line: c.at, insert_text: c.to },
      ),
  };
}

/**
 * What the writes of the first exchange came to: for a create that found the file already
 * there, the model reads it and edits it instead (one more pair of turns).
 * @param {Array<Record<string, unknown>>} writes
 * @param {Result[]} results
 * @param {Known} known
 * @param {Map<string, { fresh: string, facts: any[] }>} wanted
 * @param {(text: string, tools: Array<Record<string, unknown>>) => Result[]} ask
 * @param {(path: string) => string} name
 */
function outcomeOf(writes, results, known, wanted, ask, name) {
  /** @type {Array<{ path: string, result: Result }>} */
  const failed = [];
  /** @type {string[]} */
  const existing = [];
  results.forEach((result, i) => {
    const path = String(writes[i].path);
    if (!result.isError) {
      if (writes[i].command === "create") known.set(path, String(writes[i].file_text));
    } else if (/already exists/.test(result.text) && writes[i].command === "create") existing.push(path);
    else {
      known.set(path, null);
      failed.push({ path, result });
    }
  });
  if (existing.length > 0) {
    const views = ask(
      `${existing.map(name).join(" and ")} already exist${existing.length === 1 ? "s" : ""}: someone wrote ${existing.length === 1 ? "it" : "them"} meanwhile. I'll read ${existing.length === 1 ? "it" : "them"} and edit instead.`,
      existing.map((path) => ({ command: "view", path })),
    );
    /** @type {Array<Record<string, unknown>>} */
    const edits = [];
    views.forEach((view, i) => {
      const content = viewedContent(view);
      const note = /** @type {{ fresh: string, facts: any[] }} */ (wanted.get(existing[i]));
      if (content === null) failed.push({ path: existing[i], result: view });
      else {
        const merged = mergeFacts(content, note.facts);
        edits.push(...merged.edits(existing[i]));
        known.set(existing[i], merged.content);
      }
    });
    if (edits.length > 0) {
      const editResults = ask("Editing them to match what you told me.", edits);
      editResults.forEach((result, i) => {
        if (result.isError) failed.push({ path: String(edits[i].path), result });
      });
    }
  }
  const readOnly = failed.find((f) => isReadOnly(f.result));
  return {
    failed,
    failure: readOnly ? readOnlyWords(readOnly.result, "what you told me") : failureWords(failed, name),
  };
}

/** @param {Result} result */
function isReadOnly(result) {
  return result.isError && /read-only/.test(result.text);
}

/** @param {Result} result @param {string} what */
function readOnlyWords(result, what) {
  return (
    `I couldn't save ${what}: this memory is read-only (the tool answered “${result.text}”). ` +
    "I'll keep it in mind for the rest of this conversation, but I won't remember it next time."
  );
}

/** @param {Array<{ path: string, result: Result }>} failed @param {(path: string) => string} name */
function failureWords(failed, name) {
  return (
    failed.map((f) => `Saving ${name(f.path)} failed: the tool answered “${f.result.text}”.`).join(" ") +
    " So that part is not in my memory; tell me again later and I'll retry."
  );
}

/**
 * Whether a `view` listing names `path` (a line `{size}\t{path}`).
 * @param {string} listing @param {string} path
 */
function lists(listing, path) {
  return listing.split("\n").some((line) => line.split("\t")[1] === path);
}

/**
 * The entries right under `root` that a `view` listing of it names (`profile.md`, `trips/`), in
 * its order: what the model can truthfully say its memory holds.
 * @param {string} listing @param {string} root
 */
export function topEntries(listing, root) {
  return listing
    .split("\n")
    .slice(1)
    .map((line) => line.split("\t")[1] ?? "")
    .filter((path) => path.startsWith(`${root}/`))
    .map((path) => path.slice(root.length + 1))
    .filter((rest) => rest !== "" && !rest.replace(/\/$/, "").includes("/"));
}

/** Names in words: `a`, `a and b`, `a, b and 3 more`. @param {string[]} names */
function listWords(names) {
  if (names.length <= 1) return names.join("");
  if (names.length <= 3) return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return `${names.slice(0, 2).join(", ")} and ${names.length - 2} more`;
}

/**
 * A note's content as a `view` of it showed it (the numbered lines, numbers taken off), or null
 * for an error or a listing.
 * @param {Result} view
 */
export function viewedContent(view) {
  if (view.isError || !view.text.startsWith("Here's the content of ")) return null;
  return view.text
    .split("\n")
    .slice(1)
    .filter((line) => /^ *\d+\t/.test(line))
    .map((line) => line.replace(/^ *\d+\t/, ""))
    .join("\n");
}

/**
 * The notes, quoted: the trip's bullets, then what the profile says about the user.
 * @param {Map<string, string>} seen @param {{ profile: string, trip: string }} paths
 */
function describeNotes(seen, { profile, trip }) {
  const bullets = (/** @type {string | undefined} */ content) =>
    (content ?? "")
      .split("\n")
      .filter((l) => l.startsWith("- "))
      .map((l) => l.slice(2).trim());
  const parts = [];
  const tripBullets = bullets(seen.get(trip));
  if (seen.has(trip)) parts.push(tripBullets.length > 0 ? `your Lisbon trip (${tripBullets.join("; ")})` : "a trip note with nothing in it");
  const about = bullets(seen.get(profile));
  if (seen.has(profile)) parts.push(about.length > 0 ? `about you: ${about.join("; ")}` : "a profile note with nothing in it");
  return parts.join(", and ");
}

/**
 * A dinner idea that fits what the notes say (diet, where the user stays, when they arrive).
 * @param {string} profile @param {string} trip
 */
function dinnerIdea(profile, trip) {
  const dates = /^- dates:\s*(\d{1,2})\s*[–-]\s*\d{1,2}\s+(\p{L}+)/mu.exec(trip);
  const hotel = /^- hotel:\s*(.+)$/m.exec(trip)?.[1].replace(/\s*\(.*\)$/, "");
  const when = dates ? `For your first evening, on ${dates[1]} ${dates[2]}` : "For your first evening";
  const vegetarian = /vegetarian|vegan/i.test(profile) && !/not (a )?(vegetarian|vegan)/i.test(profile);
  const fish = /fish|seafood|meat/i.test(profile);
  const near = hotel ? `within walking distance of the ${hotel}` : "in Alfama";
  const meal = vegetarian
    ? `try a vegetarian tasting menu ${near}`
    : fish
      ? `try grilled sardines or a seafood rice at a tasca ${near}`
      : `try a small tasca ${near}`;
  const walk = hotel ? `then a sunset walk up to the Miradouro de Santa Luzia` : "then a sunset walk up to a miradouro";
  return `${when}, ${meal}, ${walk}.`;
}
