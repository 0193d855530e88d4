// Loaded with `node --import` by bench/cli.mjs into the command and its baseline alike: writes the
// process's peak resident memory (KiB, from getrusage) to MAXRSS_FILE when it exits.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  if (process.env.MAXRSS_FILE) writeFileSync(process.env.MAXRSS_FILE, String(process.resourceUsage().maxRSS));
});
