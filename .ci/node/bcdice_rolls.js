// Runs commands through BCDice (the npm package "bcdice", BCDice ported to JavaScript) and
// prints, one JSON line each, what BCDice says and the dice it rolled, for Katari's
// differential test (tests/test_bcdice_differential.py).
//
// Input: one JSON line a command on stdin, {"system": "Cthulhu7th" | "Cthulhu", "command": "..."}.
// Output: {"text", "rands": [[value, sides], ...], "secret", "success", "failure", "critical",
// "fumble"} or {"none": true} when BCDice reads no command.
'use strict';

const path = require('path');
const readline = require('readline');
const { DynamicLoader } = require(path.join(__dirname, 'node_modules', 'bcdice'));

async function main() {
  const loader = new DynamicLoader();
  const systems = {};
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    const req = JSON.parse(line);
    const id = req.system || 'Cthulhu7th';
    if (!systems[id]) systems[id] = await loader.dynamicLoad(id);
    let out;
    try {
      const r = systems[id].eval(req.command);
      out = r ? { text: r.text, rands: r.rands, secret: r.secret, success: r.success,
                  failure: r.failure, critical: r.critical, fumble: r.fumble }
              : { none: true };
    } catch (e) {
      out = { error: String(e && e.message || e) };
    }
    process.stdout.write(JSON.stringify(out) + '\n');
  }
}

main().catch((e) => { process.stderr.write(String(e && e.stack || e) + '\n'); process.exit(1); });
