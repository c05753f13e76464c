/** The command's help text. */
export const USAGE = `Usage: agent-loopguard replay [--config guard.json] [--json] FILE...

Replays recorded agent runs through a fresh guard each, step by step, and reports where the guard would have stopped
them.

FILE        .jsonl or .jsonl.gz: one run a line, {"id", "outcome"?, "steps": [step, ...]}
            .json or .json.gz: an array of steps (one run), an array of runs, or one run
Options:
  -c, --config FILE   JSON file of guard options (every option but functions)
      --json          print one JSON report instead of text
  -h, --help          print this help

Exit status: 0 when every input was read, 1 when some line or file could not be, 2 for usage errors or a bad config.
`;
