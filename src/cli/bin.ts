import { main } from './main.js';
import { processIo } from './io.js';

// The exit code is set, not forced, so output still being written to a pipe is flushed first.
process.exitCode = await main(process.argv.slice(2), processIo(process.stdout, process.stderr));
