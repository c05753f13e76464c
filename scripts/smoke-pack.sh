#!/usr/bin/env bash
# Installs the packed tarball into a fresh project, the way a user gets it, and checks it there:
#   1. the TypeScript declarations resolve and type-check for an ESM and a CommonJS consumer (node16, nodenext), for a
#      bundler consumer without Node's types and for a classic node10 consumer, with TypeScript 6 and 7 (7 refuses
#      node10 itself; that refusal is checked too). $AGENT_LOOPGUARD_SMOKE_TSC lists other tsc scripts to use;
#   2. on every requested Node, `import` and `require` expose the same export names and both work: a default guard,
#      runAgentLoop and withGuard each stop the third identical tool call with reason `repeated-tool-call`;
#   3. if the package declares a `bin`, every command starts on every requested Node (`--help` exits 0);
#   4. every subpath export (read from the exports map) type-checks for the same consumers, and on every requested Node
#      `import` and `require` of it expose the same names; the adapters among them (the OpenAI Agents SDK, the Claude
#      Agent SDK, LangChain and Mastra) stop a looping run of hand-made shapes, and /otel records on a span;
#   5. before an optional peer is installed, the root entry and every subpath that does not import one load, and one
#      that does fails naming it; then the peers are copied in from this project's node_modules for the checks above.
#
# Usage: scripts/smoke-pack.sh [NODE...]   (run `npm run build` first)
#   NODE is a major version (18, 20, 22, 24; other than the current one it comes from scripts/node-bin.sh) or the path
#   of a node binary. Default: $AGENT_LOOPGUARD_SMOKE_NODES, else "18 20 22 24". A Node that cannot be had fails the run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

package_name=$(node -p 'require("./package.json").name')
# Subpath exports such as "./openai-agents", without the "./" (package.json itself is not code).
read -ra subpaths <<<"$(node -p 'Object.keys(require("./package.json").exports).filter((key) => key.startsWith("./") && key !== "./package.json").map((key) => key.slice(2)).join(" ")')"
if [[ $# -gt 0 ]]; then node_specs=("$@"); else read -ra node_specs <<<"${AGENT_LOOPGUARD_SMOKE_NODES:-18 20 22 24}"; fi
[[ ${#node_specs[@]} -gt 0 ]] || { echo "smoke: no Node version to test on" >&2; exit 1; }
[[ -f dist/index.js && -f dist/index.cjs ]] || { echo "smoke: dist/ is missing: run npm run build first" >&2; exit 1; }

# Resolve every Node first, so a missing one fails before any work is done.
current_major=$(node -p 'process.versions.node.split(".")[0]')
node_bins=()
for spec in "${node_specs[@]}"; do
  if [[ $spec =~ ^[0-9]+$ ]]; then
    if [[ $spec == "$current_major" ]]; then bin=$(command -v node); else bin=$("$root/scripts/node-bin.sh" "$spec"); fi
    actual=$("$bin" -p 'process.versions.node.split(".")[0]')
    [[ $actual == "$spec" ]] || { echo "smoke: $bin is Node $actual, not $spec" >&2; exit 1; }
  elif [[ -n $spec && -x $spec ]]; then
    bin=$spec
  else
    echo "smoke: '$spec' is neither a Node major version nor an executable node binary" >&2
    exit 1
  fi
  node_bins+=("$bin")
done

work=$(mktemp -d "${TMPDIR:-/tmp}/agent-loopguard-smoke.XXXXXX")
cleanup() {
  local status=$?
  if [[ $status -eq 0 ]]; then rm -rf "$work"; else echo "smoke: FAILED; the consumer project is kept in $work" >&2; fi
}
trap cleanup EXIT

echo "smoke: packing"
tarball=$(npm pack --silent --pack-destination "$work")
tarball="$work/$tarball"

consumer="$work/consumer"
mkdir -p "$consumer"
cd "$consumer"
cat >package.json <<'JSON'
{ "name": "agent-loopguard-smoke-consumer", "private": true, "version": "0.0.0", "type": "module" }
JSON
npm install --no-audit --no-fund --loglevel=error "$tarball" >/dev/null

# ---------------------------------------------------------------------------------------------------------------------
# Optional peers (peerDependenciesMeta optional: npm does not install them). Before any is installed: on every Node,
# the root entry and every subpath that does not import one load through import and require; a subpath that imports
# one (its built file names it) fails naming it. Then the peers are copied in from the project's own node_modules, so
# every check below covers every subpath.
peer_subpaths=()
read -ra optional_peers <<<"$(node -p 'Object.entries(require(process.argv[1]).peerDependenciesMeta ?? {}).filter(([, meta]) => meta?.optional === true).map(([name]) => name).join(" ")' "$consumer/node_modules/$package_name/package.json")"
if [[ ${#optional_peers[@]} -gt 0 ]]; then
  peer_free=("$package_name")
  peer_needing=()
  for subpath in "${subpaths[@]}"; do
    needs=false
    for peer in "${optional_peers[@]}"; do
      grep -qF "'$peer'" "node_modules/$package_name/dist/$subpath.js" && needs=true
    done
    if [[ $needs == true ]]; then peer_needing+=("$package_name/$subpath"); peer_subpaths+=("$subpath"); else peer_free+=("$package_name/$subpath"); fi
  done
  for bin in "${node_bins[@]}"; do
    version=$("$bin" --version)
    for entry in "${peer_free[@]}"; do
      "$bin" --input-type=module -e "const lib = await import('$entry'); if (Object.keys(lib).length === 0) throw new Error('no exports');" ||
        { echo "smoke: import of $entry failed without ${optional_peers[*]} on Node $version" >&2; exit 1; }
      "$bin" -e "const lib = require('$entry'); if (Object.keys(lib).length === 0) throw new Error('no exports');" ||
        { echo "smoke: require of $entry failed without ${optional_peers[*]} on Node $version" >&2; exit 1; }
    done
    for entry in "${peer_needing[@]}"; do
      for loader in import require; do
        if [[ $loader == import ]]; then loaded=$("$bin" --input-type=module -e "await import('$entry')" 2>&1); else loaded=$("$bin" -e "require('$entry')" 2>&1); fi && {
          echo "smoke: $entry loaded through $loader without ${optional_peers[*]} on Node $version" >&2
          exit 1
        }
        grep -qF "${optional_peers[0]}" <<<"$loaded" || { echo "$loaded" >&2; echo "smoke: $entry failed for another reason than a missing peer" >&2; exit 1; }
      done
    done
    echo "smoke: Node $version: without ${optional_peers[*]}, ${#peer_free[@]} entries load; those that fail naming it: ${peer_needing[*]:-none}"
  done
  for peer in "${optional_peers[@]}"; do
    mkdir -p "node_modules/$(dirname "$peer")"
    cp -R "$root/node_modules/$peer" "node_modules/$peer"
  done
fi

# ---------------------------------------------------------------------------------------------------------------------
# Runtime checks: the same exercise for both module formats, so their reports must be byte-identical.
cat >exercise.cjs <<'JS'
'use strict';
// Shared by the ESM and the CommonJS entry: takes the module namespace, resolves to a report, rejects on any mismatch.
module.exports = async function exercise(lib) {
  const fail = (message) => {
    throw new Error(message);
  };
  const names = Object.keys(lib)
    .filter((name) => name !== 'default' && name !== '__esModule' && name !== 'module.exports')
    .sort();
  const functions = ['createGuard', 'explain', 'isFault', 'canonicalize', 'stableHash', 'runAgentLoop', 'withGuard', 'toStopWhen', 'toGuardStep'];
  for (const name of functions) {
    if (typeof lib[name] !== 'function') fail(`export ${name} is ${typeof lib[name]}, expected a function`);
  }
  const guard = lib.createGuard();
  // Same call each time, keys in a different order: the guard must compare arguments canonically.
  const steps = [
    { toolCalls: [{ name: 'search', args: { query: 'loop', page: 1 } }], finishReason: 'tool-calls' },
    { toolCalls: [{ name: 'search', args: { page: 1, query: 'loop' } }], finishReason: 'tool-calls' },
    { toolCalls: [{ name: 'search', args: { query: 'loop', page: 1 } }], finishReason: 'tool-calls' },
  ];
  const verdicts = steps.map((step) => guard.check(step));
  verdicts.slice(0, 2).forEach((verdict, index) => {
    if (verdict.stop !== false) fail(`call ${index + 1} of 3 stopped the run: ${JSON.stringify(verdict)}`);
  });
  const stop = verdicts[2];
  if (stop.stop !== true || stop.reason !== 'repeated-tool-call' || stop.code !== 'REPEATED_TOOL_CALL') {
    fail(`the third identical call did not stop with repeated-tool-call: ${JSON.stringify(stop)}`);
  }
  if (JSON.stringify(JSON.parse(JSON.stringify(stop))) !== JSON.stringify(stop)) fail('the verdict is not plain JSON');
  if (lib.isFault(stop) !== true) fail('isFault(repeated-tool-call) is not true');
  const explanation = lib.explain(stop);
  if (typeof explanation !== 'string' || !explanation.includes('REPEATED_TOOL_CALL')) {
    fail(`explain() gave ${JSON.stringify(explanation)}`);
  }
  if (lib.canonicalize({ b: 1, a: [2] }) !== lib.canonicalize({ a: [2], b: 1 })) fail('canonicalize depends on key order');
  if (lib.stableHash({ b: 1, a: 2 }) !== lib.stableHash({ a: 2, b: 1 })) fail('stableHash depends on key order');
  // The async adapters: a loop that keeps making the same call ends on its third step, and so does a guarded stream.
  const loop = await lib.runAgentLoop({ step: () => steps[0] });
  if (loop.steps.length !== 3 || loop.completed !== false || loop.verdict.reason !== 'repeated-tool-call') {
    fail(`runAgentLoop did not stop the repeating loop at step 3: ${JSON.stringify(loop)}`);
  }
  const guarded = lib.withGuard([...steps, ...steps], lib.createGuard());
  let yielded = 0;
  for await (const _step of guarded) yielded += 1;
  if (yielded !== 3 || guarded.verdict?.reason !== 'repeated-tool-call') {
    fail(`withGuard yielded ${yielded} steps, verdict ${JSON.stringify(guarded.verdict)}`);
  }
  return { names, stop, explanation, hash: lib.stableHash({ a: [1, 'x'] }) };
};
JS
cat >esm.mjs <<JS
import * as lib from '$package_name';
import exercise from './exercise.cjs';
console.log(JSON.stringify(await exercise(lib)));
JS
cat >cjs.cjs <<JS
'use strict';
const lib = require('$package_name');
const manifest = require('$package_name/package.json');
if (typeof manifest.version !== 'string') throw new Error('package.json is not reachable through exports');
require('./exercise.cjs')(lib).then((report) => console.log(JSON.stringify(report)));
JS

# The subpaths: both module formats load each one (their reports must be byte-identical too), and an adapter with a
# check below must stop a loop fed to its hooks in that framework's shapes.
cat >exercise-subpaths.cjs <<'JS'
'use strict';
const fail = (message) => {
  throw new Error(message);
};
const search = (id) => ({ name: 'search', id, args: { query: 'loop' } });
const checks = {
  // The guardrail lets two identical calls through and refuses the next two; the second refusal stops the run.
  'openai-agents': async (lib) => {
    const loop = lib.loopGuardForAgents({ noProgress: false });
    const runContext = { context: {}, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } };
    const answers = [];
    for (const call of ['a', 'b', 'c', 'd'].map(search)) {
      const toolCall = { callId: call.id, name: call.name, arguments: JSON.stringify(call.args) };
      answers.push((await loop.toolInputGuardrail.run({ context: runContext, toolCall })).behavior.type);
      const result = { type: 'function_output', output: 'nothing', runItem: { rawItem: { callId: call.id, name: call.name } } };
      if (loop.toolUseBehavior(runContext, [result]).isFinalOutput) break;
    }
    const stop = loop.verdictOf(runContext);
    if (answers.join() !== 'allow,allow,rejectContent,rejectContent' || stop?.code !== 'REPEATED_TOOL_CALL') {
      fail(`openai-agents: answers ${answers.join()}, verdict ${JSON.stringify(stop)}`);
    }
    return `${answers.join(' ')}, then ${stop.code}`;
  },
  // PreToolUse denies the third and fourth identical calls; PostToolBatch stops the session after the fourth.
  'claude-agent-sdk': async (lib) => {
    const hooks = lib.toClaudeHooks({ noProgress: false });
    if (Object.keys(hooks).join() !== 'PreToolUse,PostToolUseFailure,PostToolBatch') fail(`claude-agent-sdk: hooks ${Object.keys(hooks).join()}`);
    const session = { session_id: 'smoke' };
    const answers = [];
    for (const call of ['a', 'b', 'c', 'd'].map(search)) {
      const input = { ...session, hook_event_name: 'PreToolUse', tool_name: call.name, tool_input: call.args, tool_use_id: call.id };
      const pre = await hooks.PreToolUse[0].hooks[0](input, call.id);
      answers.push(pre.hookSpecificOutput?.permissionDecision ?? 'allow');
      const toolCalls = [{ tool_name: call.name, tool_input: call.args, tool_use_id: call.id, tool_response: 'nothing' }];
      const post = await hooks.PostToolBatch[0].hooks[0]({ ...session, hook_event_name: 'PostToolBatch', tool_calls: toolCalls }, 'hook-1');
      if (post.continue === false) break;
    }
    const stop = hooks.verdictFor('smoke');
    if (answers.join() !== 'allow,allow,deny,deny' || stop?.code !== 'REPEATED_TOOL_CALL') {
      fail(`claude-agent-sdk: answers ${answers.join()}, verdict ${JSON.stringify(stop)}`);
    }
    return `${answers.join(' ')}, then ${stop.code}`;
  },
  // wrapToolCall runs the first two identical calls and answers the next two with the ToolMessage class it was given;
  // beforeModel warns after the second and ends the run after the fourth. The state is the run's own messages.
  langchain: async (lib) => {
    class ToolMessage {
      constructor(fields) {
        Object.assign(this, fields, { type: 'tool' });
      }
    }
    const middleware = lib.loopGuardMiddleware({ noProgress: false }, { ToolMessage });
    const messages = [{ type: 'human', id: 'h', content: 'Find it.' }];
    const answers = [];
    let end;
    for (const call of ['a', 'b', 'c', 'd'].map(search)) {
      const toolCall = { id: call.id, name: call.name, args: call.args };
      messages.push({ type: 'ai', id: `ai-${call.id}`, content: '', tool_calls: [toolCall] });
      const handler = () => ({ type: 'tool', id: `tool-${call.id}`, tool_call_id: call.id, content: 'nothing', status: 'success' });
      const answer = await middleware.wrapToolCall({ toolCall, state: { messages } }, handler);
      answers.push(answer instanceof ToolMessage ? 'refuse' : 'run');
      messages.push(answer);
      const update = middleware.beforeModel.hook({ messages });
      if (update?.jumpTo === 'end') {
        end = update.jumpTo;
        break;
      }
      if (update !== undefined) messages.push({ type: 'human', id: update.messages[0].id, content: update.messages[0].content });
    }
    const stop = middleware.verdictOf({ messages });
    if (answers.join() !== 'run,run,refuse,refuse' || end !== 'end' || stop?.code !== 'REPEATED_TOOL_CALL') {
      fail(`langchain: answers ${answers.join()}, jump ${end}, verdict ${JSON.stringify(stop)}`);
    }
    return `${answers.join(' ')}, then ${stop.code}`;
  },
  // beforeToolCall lets two identical calls through and skips the next two; prepareStep ends the run with a tripwire
  // before the fifth model call. The run is known by its requestContext.
  mastra: async (lib) => {
    const loop = lib.toMastraOptions({ noProgress: false });
    const requestContext = {};
    const steps = [];
    const answers = [];
    let tripwire;
    const abort = (reason, options) => {
      tripwire = { reason, ...options };
      throw new Error('tripwire');
    };
    for (const call of ['a', 'b', 'c', 'd', 'e'].map(search)) {
      try {
        loop.prepareStep({ steps: [...steps], requestContext, abort });
      } catch (error) {
        if (tripwire === undefined) throw error;
        break;
      }
      const before = await loop.hooks.beforeToolCall({ toolName: call.name, input: call.args, context: { toolCallId: call.id, requestContext } });
      answers.push(before?.proceed === false ? 'skip' : 'run');
      const output = before?.output ?? 'nothing';
      const toolCalls = [{ toolCallId: call.id, toolName: call.name, args: call.args }];
      steps.push({ finishReason: 'tool-calls', toolCalls, toolResults: [{ toolCallId: call.id, output }], usage: { totalTokens: 1 }, request: {} });
      loop.stopWhen({ steps });
    }
    const stop = loop.verdictOf(requestContext);
    if (answers.join() !== 'run,run,skip,skip' || stop?.code !== 'REPEATED_TOOL_CALL' || loop.verdictOf({ tripwire }) !== stop) {
      fail(`mastra: answers ${answers.join()}, verdict ${JSON.stringify(stop)}, tripwire ${JSON.stringify(tripwire?.reason)}`);
    }
    return `${answers.join(' ')}, then ${stop.code}`;
  },
  // The telemetry records a warning and a fault stop on a span of plain functions, and marks the span failed.
  otel: async (lib) => {
    const events = [];
    let status;
    const span = {
      addEvent: (name, attributes) => events.push(`${name}:${attributes['agent_loopguard.code']}`),
      setStatus: (given) => (status = given.code),
      setAttribute: () => undefined,
      isRecording: () => true,
    };
    const telemetry = lib.loopGuardTelemetry({ span });
    const evidence = { tool: 'search', argsPreview: '{"query":"loop"}', count: 2, threshold: 3, stepIndexes: [0, 1], identicalResults: true };
    telemetry.record({ stop: false, warnings: [{ code: 'LOOP_WARNING', reason: 'repeated-tool-call', detail: 'twice', message: 'm', evidence }] }, 1);
    telemetry.record({ stop: true, reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL', detail: 'thrice', evidence: { ...evidence, count: 3 } }, 2);
    if (events.join() !== 'agent_loopguard.warning:LOOP_WARNING,agent_loopguard.stop:REPEATED_TOOL_CALL' || status !== 2) {
      fail(`otel: events ${events.join()}, status ${status}`);
    }
    return `${events.join(' ')}, span status ERROR`;
  },
};
module.exports = async function exerciseSubpaths(load, subpaths) {
  const report = {};
  for (const subpath of subpaths) {
    const lib = await load(subpath);
    const names = Object.keys(lib)
      .filter((name) => name !== 'default' && name !== '__esModule' && name !== 'module.exports')
      .sort();
    if (names.length === 0) fail(`${subpath} exports nothing`);
    report[subpath] = { names, loop: checks[subpath] === undefined ? null : await checks[subpath](lib) };
  }
  return report;
};
JS
cat >subpaths-esm.mjs <<JS
import exercise from './exercise-subpaths.cjs';
console.log(JSON.stringify(await exercise((subpath) => import('$package_name/' + subpath), process.argv.slice(2))));
JS
cat >subpaths-cjs.cjs <<JS
'use strict';
require('./exercise-subpaths.cjs')((subpath) => require('$package_name/' + subpath), process.argv.slice(2)).then((report) => console.log(JSON.stringify(report)));
JS

# ---------------------------------------------------------------------------------------------------------------------
# Type checks. The consumer uses the public API the way the README shows it; the @ts-expect-error lines prove the
# declarations are real types, not `any` (an unused @ts-expect-error is itself an error).
consumer_source=$(cat <<TS
import { createGuard, explain, isFault, canonicalize, stableHash, runAgentLoop, toStopWhen, withGuard } from '$package_name';
import type { GuardOptions, GuardStep, StopReason, Verdict } from '$package_name';

const options: GuardOptions = { maxSteps: 25, repeatedToolCall: { threshold: 3 }, budget: { maxTotalTokens: 10_000 } };
const guard = createGuard(options);
const step: GuardStep = { toolCalls: [{ name: 'search', args: { query: 'loop' } }], finishReason: 'tool-calls' };

export function describe(verdict: Verdict): string {
  if (!verdict.stop) return 'continue';
  const reason: StopReason = verdict.reason;
  return [reason, verdict.code, explain(verdict), String(isFault(verdict))].join(' ');
}
export const described: string = describe(guard.check(step));
export const keys: readonly string[] = [canonicalize({ a: 1 }), stableHash({ a: 1 })];
export const recorded: number = guard.history.length;
export const loop: Promise<{ readonly completed: boolean; readonly verdict: Verdict }> = runAgentLoop({ step: () => step });
export const stream: AsyncIterable<GuardStep> & { readonly verdict: Verdict | undefined } = withGuard([step], guard);
export const stopWhen = toStopWhen(() => createGuard(), { onStop: (stop) => explain(stop) });

// @ts-expect-error maxSteps takes a number or false, never a string
createGuard({ maxSteps: 'ten' });
// @ts-expect-error a verdict that may be "continue" has no reason until it is narrowed
export const unnarrowed: unknown = guard.check(step).reason;
TS
)
# Every subpath too, so its declarations are loaded and checked like the root's. A subpath that imports an optional
# peer goes into its own lines: the consumer without Node or DOM types leaves it out, since the peer's declarations
# need one of them (@opentelemetry/api's name `console`) and no program using the peer runs without a console.
peer_lines=''
for index in "${!subpaths[@]}"; do
  lines=$'\n'"import * as subpath$index from '$package_name/${subpaths[$index]}';"
  lines+=$'\n'"export const subpath${index}Names: readonly string[] = Object.keys(subpath$index);"
  if [[ " ${peer_subpaths[*]} " == *" ${subpaths[$index]} "* ]]; then peer_lines+=$lines; else consumer_source+=$lines; fi
done
printf '%s\n' "$consumer_source$peer_lines" >consumer.mts
printf '%s\n' "$consumer_source$peer_lines" >consumer.cts
printf '%s\n' "$consumer_source" >consumer-bare.mts
printf '%s\n' "$consumer_source" >consumer-bare.cts
printf '%s\n' "$consumer_source$peer_lines" >consumer-bundler.ts

# Declarations are checked too (skipLibCheck off): with Node's types as a typical Node project has them (node16,
# plain strict, since @types/node itself fails exactOptionalPropertyTypes), and with no Node or DOM types at all under
# the strictest flags (nodenext), and as a browser or edge bundle sees them (bundler, DOM but no Node types).
node_types=$(cd "$root/node_modules/@types" && pwd)
write_tsconfig() { # name module moduleResolution lib types strictest files...
  local name=$1 module=$2 resolution=$3 lib=$4 types=$5 strictest=$6
  shift 6
  local files
  files=$(printf '"%s",' "$@")
  cat >"$name" <<JSON
{
  "compilerOptions": {
    "module": "$module", "moduleResolution": "$resolution", "target": "ES2022", "lib": $lib,
    "typeRoots": ["$node_types"], "types": $types,
    "strict": true, "exactOptionalPropertyTypes": $strictest, "noUncheckedIndexedAccess": $strictest,
    "skipLibCheck": false, "noEmit": true
  },
  "files": [${files%,}]
}
JSON
}
write_tsconfig tsconfig.node16.json node16 node16 '["ES2022"]' '["node"]' false consumer.mts consumer.cts
write_tsconfig tsconfig.nodenext.json nodenext nodenext '["ES2022"]' '[]' true consumer-bare.mts consumer-bare.cts
write_tsconfig tsconfig.bundler.json esnext bundler '["ES2022", "DOM"]' '[]' true consumer-bundler.ts

# node10 (classic `node` resolution, CommonJS): TypeScript 6 still reads it once its deprecation is acknowledged;
# TypeScript 7 removed the option (TS5108), so there it must fail with exactly that, and nothing about the package.
printf '%s\n' "$consumer_source$peer_lines" >consumer-node10.ts
write_tsconfig tsconfig.node10.json commonjs node10 '["ES2022"]' '["node"]' false consumer-node10.ts
node -e '
  const file = process.argv[1], config = JSON.parse(require("fs").readFileSync(file, "utf8"));
  config.compilerOptions.ignoreDeprecations = "6.0";
  require("fs").writeFileSync(file, JSON.stringify(config, null, 2));' tsconfig.node10.json

# Every TypeScript the project supports: its own (6) and the 7 it installs as `typescript-7`, unless told otherwise.
read -ra tsc_bins <<<"${AGENT_LOOPGUARD_SMOKE_TSC:-$root/node_modules/typescript/bin/tsc $root/node_modules/typescript-7/bin/tsc}"
installed="node_modules/$package_name/dist"
for tsc in "${tsc_bins[@]}"; do
  tsc_version=$(node "$tsc" --version)
  tsc_major=${tsc_version#Version }
  tsc_major=${tsc_major%%.*}
  for mode in node16 nodenext bundler node10; do
    if [[ $mode == node10 && $tsc_major -ge 7 ]]; then
      if node "$tsc" -p tsconfig.node10.json >tsc-node10.log; then
        echo "smoke: TypeScript $tsc_major accepted moduleResolution node10; the README says it does not" >&2
        exit 1
      fi
      grep -q "error TS5108: Option 'moduleResolution=node10' has been removed" tsc-node10.log || {
        cat tsc-node10.log >&2
        echo "smoke: node10 failed on TypeScript $tsc_major for another reason than its removal" >&2
        exit 1
      }
      echo "smoke: node10 is refused by TypeScript ${tsc_version#Version } itself (TS5108), as the README says"
      continue
    fi
    # --listFiles prints absolute paths; diagnostics name files relative to the consumer, so they are easy to tell apart.
    if ! node "$tsc" -p "tsconfig.$mode.json" --listFiles >"tsc-$mode.log"; then
      grep -v '^/' "tsc-$mode.log" >&2 || true
      echo "smoke: the $mode consumer does not type-check with TypeScript ${tsc_version#Version }" >&2
      exit 1
    fi
    listing=$(<"tsc-$mode.log")
    # Each module format must be typed by its own declaration file (.d.ts for import, .d.cts for require).
    expected=()
    for entry in index "${subpaths[@]}"; do
      [[ $mode == nodenext && " ${peer_subpaths[*]} " == *" $entry "* ]] && continue
      [[ $mode == node10 ]] || expected+=("$installed/$entry.d.ts")
      [[ $mode == bundler ]] || expected+=("$installed/$entry.d.cts")
    done
    for declaration in "${expected[@]}"; do
      grep -q "/$declaration\$" <<<"$listing" || { echo "smoke: types ($mode) did not load $declaration" >&2; exit 1; }
    done
    echo "smoke: types resolve and check for $mode (TypeScript ${tsc_version#Version })"
  done
done

# ---------------------------------------------------------------------------------------------------------------------
# The names of the package's commands, if it declares a `bin` (a string bin is named after the unscoped package).
bins=$(node -p 'const m = require(process.argv[1]);
  typeof m.bin === "string" ? m.name.split("/").pop() : Object.keys(m.bin ?? {}).join(" ")' \
  "$consumer/node_modules/$package_name/package.json")
for bin in "${node_bins[@]}"; do
  version=$("$bin" --version)
  esm_report=$("$bin" esm.mjs) || { echo "smoke: ESM import failed on Node $version" >&2; exit 1; }
  cjs_report=$("$bin" cjs.cjs) || { echo "smoke: CommonJS require failed on Node $version" >&2; exit 1; }
  if [[ $esm_report != "$cjs_report" ]]; then
    printf 'smoke: import and require disagree on Node %s\n  import:  %s\n  require: %s\n' "$version" "$esm_report" "$cjs_report" >&2
    exit 1
  fi
  export_count=$("$bin" -p "JSON.parse(process.argv[1]).names.length" "$esm_report")
  echo "smoke: Node $version: import and require agree on $export_count exports; check, runAgentLoop and withGuard stop the third identical call"
  if [[ ${#subpaths[@]} -gt 0 ]]; then
    esm_subpaths=$("$bin" subpaths-esm.mjs "${subpaths[@]}") || { echo "smoke: ESM import of a subpath failed on Node $version" >&2; exit 1; }
    cjs_subpaths=$("$bin" subpaths-cjs.cjs "${subpaths[@]}") || { echo "smoke: CommonJS require of a subpath failed on Node $version" >&2; exit 1; }
    if [[ $esm_subpaths != "$cjs_subpaths" ]]; then
      printf 'smoke: import and require of the subpaths disagree on Node %s\n  import:  %s\n  require: %s\n' "$version" "$esm_subpaths" "$cjs_subpaths" >&2
      exit 1
    fi
    for subpath in "${subpaths[@]}"; do
      summary=$("$bin" -p 'const entry = JSON.parse(process.argv[1])[process.argv[2]]; entry.names.join(", ") + (entry.loop === null ? "" : "; " + entry.loop)' "$esm_subpaths" "$subpath")
      echo "smoke: Node $version: $package_name/$subpath: import and require agree on $summary"
    done
  fi
  for command in $bins; do
    [[ -x node_modules/.bin/$command ]] || { echo "smoke: bin $command is not installed as an executable" >&2; exit 1; }
    target=$(readlink -f "node_modules/.bin/$command")
    "$bin" "$target" --help >/dev/null || { echo "smoke: '$command --help' failed on Node $version" >&2; exit 1; }
    echo "smoke: Node $version: '$command --help' exits 0"
  done
done
echo "smoke: OK on ${#node_bins[@]} Node version(s)"
