/**
 * One pass over canonical JSON arguments: a key (`"path":`, a name in the call's layout, not something it asked
 * about), an escape (`\n`, so its letter is not glued to the word after it), or a word, the only part kept.
 */
const ARGUMENT_PART = /"(?:[^"\\\n]|\\.)*":|\\.|([A-Za-z0-9_]+)/g;
/** A run of word characters in a shape. */
const SHAPE_WORD = /[A-Za-z0-9_]+/g;
const DIGIT = /\d/;

/**
 * The words a call's arguments hold, from their preview (at most 120 characters of canonical JSON, so the work is
 * bounded whatever the arguments): every run of letters, digits and `_` in a value, not the keys.
 * @param argsPreview - the call's canonical arguments, shortened
 * @returns the words
 */
export function echoedWords(argsPreview: string): ReadonlySet<string> {
  const words = new Set<string>();
  for (const [, word] of argsPreview.matchAll(ARGUMENT_PART)) if (word !== undefined) words.add(word);
  return words;
}

/**
 * A shape (see `answerShape`) with every word that echoes the call's arguments blanked to `0` as well, as a quoted
 * span or a number already is: `javac: command not found` and `mvn: command not found` answer `javac` and `mvn` with
 * one failure. Only for answers compared across calls: in one that carries information, an echo is part of it. Runs
 * holding a digit are left alone: in a shape they are `0` already, or part of a token for a long text (`#s12:…`).
 * @param shape - the shape of a failure
 * @param words - the words of the call's arguments (see {@link echoedWords})
 * @returns the shape with the echoes blanked
 */
export function blankEchoes(shape: string, words: ReadonlySet<string>): string {
  return shape.replace(SHAPE_WORD, (word) => (words.has(word) && !DIGIT.test(word) ? '0' : word));
}
